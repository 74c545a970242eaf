package io.basalt.it.target;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test that runs once per enabled target ("[basalt]", then "[hbase]"). The method may take a
 * {@link ClusterTarget} and/or the target's shared {@link org.apache.hadoop.hbase.client.Connection}. Tables are
 * per target, so each invocation starts from the same empty cluster state for the tables it names.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(TargetExtension.class)
public @interface BothTargets {}

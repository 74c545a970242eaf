package io.basalt.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The test class asserts how long something takes under load (a writer's longest wait across a failover, a move or
 * a cut; how soon a grant is seen), so it must not share the machine's cores with another test JVM: basalt-it's pom
 * runs these classes on their own after the others, which run two JVMs at a time.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("timing")
public @interface TimingSensitive {}

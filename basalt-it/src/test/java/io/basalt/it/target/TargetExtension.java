package io.basalt.it.target;

import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/** Expands a {@link BothTargets} method into one invocation per target and injects the target and its connection. */
final class TargetExtension implements TestTemplateInvocationContextProvider {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TargetExtension.class);

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return true;
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    // Close the targets when the whole JUnit run ends (the root context outlives every test class).
    context.getRoot().getStore(NS).getOrComputeIfAbsent("targets", k -> (ExtensionContext.Store.CloseableResource) Targets::closeAll);
    List<String> names = Targets.enabled();
    names.forEach(Targets::prestart);
    return names.stream().map(Invocation::new);
  }

  private record Invocation(String target) implements TestTemplateInvocationContext {
    @Override
    public String getDisplayName(int invocationIndex) {
      return "[" + target + "]";
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
      return List.of(new ParameterResolver() {
        @Override
        public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
          Class<?> type = p.getParameter().getType();
          return type == ClusterTarget.class || type == Connection.class;
        }

        @Override
        public Object resolveParameter(ParameterContext p, ExtensionContext e) {
          return p.getParameter().getType() == Connection.class ? Targets.connection(target) : Targets.get(target);
        }
      });
    }
  }
}

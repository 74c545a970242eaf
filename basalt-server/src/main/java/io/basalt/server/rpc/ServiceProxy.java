package io.basalt.server.rpc;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hbase.thirdparty.com.google.protobuf.RpcController;
import org.apache.hbase.thirdparty.com.google.protobuf.ServiceException;

/**
 * Implements a generated protobuf {@code BlockingInterface} by forwarding each RPC to the first handler with
 * a method of the same name, taking {@code (CallController, Request)} and throwing IOException. RPCs no
 * handler has fail with a DoNotRetryIOException that names them, never a silent no-op.
 */
public final class ServiceProxy {
  private ServiceProxy() {}

  public static <T> T of(Class<T> blockingInterface, String serviceName, Object... handlers) {
    return blockingInterface.cast(Proxy.newProxyInstance(blockingInterface.getClassLoader(),
        new Class<?>[] {blockingInterface}, (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.invoke(handlers[0], args);
          }
          Method target = null;
          Object handler = null;
          for (Object h : handlers) {
            try {
              target = h.getClass().getMethod(method.getName(), CallController.class, method.getParameterTypes()[1]);
              handler = h;
              break;
            } catch (NoSuchMethodException e) {
              // try the next handler
            }
          }
          if (target == null) {
            throw new ServiceException(new DoNotRetryIOException(
                new UnsupportedOperationException(serviceName + "." + capitalized(method.getName()) + " is not supported by Basalt")));
          }
          try {
            return target.invoke(handler, (CallController) (RpcController) args[0], args[1]);
          } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
              throw new ServiceException(io);
            }
            throw new ServiceException(ServerErrors.toIOException(cause));
          }
        }));
  }

  private static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}

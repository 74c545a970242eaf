package io.basalt.storage.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for test servers, shared by every module's tests (this module's test jar). They come from below the kernel's
 * ephemeral range (32768 and up by default), from which every outgoing connection on the machine draws its local
 * port: a port found free up there could be taken by some connection before the server bound it (a region server
 * once died on "Address already in use" as its test cluster started). Blocks of replication ports that tests lay out
 * themselves use 20000-32767; these stay below them.
 */
public final class FreePorts {
  private static final int FIRST_PORT = 10_000;
  private static final int PORT_SPAN = 10_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** {@code n} distinct ports free right now that this JVM has not handed out before. */
  public static synchronized int[] take(int n) throws IOException {
    int[] ports = new int[n];
    for (int i = 0; i < n; i++) {
      ports[i] = take();
    }
    return ports;
  }

  private static int take() throws IOException {
    for (int attempt = 0; attempt < 4 * PORT_SPAN; attempt++) {
      int port = FIRST_PORT + ThreadLocalRandom.current().nextInt(PORT_SPAN);
      if (!HANDED_OUT.contains(port) && bindable(port)) {
        HANDED_OUT.add(port);
        return port;
      }
    }
    throw new IOException("no free port left in " + FIRST_PORT + "-" + (FIRST_PORT + PORT_SPAN - 1));
  }

  /** Free on every address (what a server binding the wildcard needs, and so one binding 127.0.0.1 too). */
  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException inUse) {
      return false;
    }
  }
}

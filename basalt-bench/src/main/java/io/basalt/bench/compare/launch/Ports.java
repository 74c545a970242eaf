package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for the servers, and whether one accepts connections yet. */
final class Ports {
  private Ports() {}

  /** {@code n} distinct ports free on 127.0.0.1 right now (held together while picking, so no duplicates). */
  static int[] free(int n) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
  }

  /**
   * Where {@code blocks} disjoint blocks of {@code size} consecutive ports start, every port free on 127.0.0.1
   * right now (a cluster's region servers' replication port ranges). The blocks lie between 20000 and 32000: below
   * Linux's ephemeral range (32768 and up), so no outgoing connection takes one of them later, and at a random
   * place, so that two benches or tests starting at once rarely probe the same ports.
   */
  static int[] freeBlocks(int blocks, int size) throws IOException {
    int low = 20_000;
    int span = blocks * size;
    int slots = (32_000 - low - span) / size;
    for (int attempt = 0; attempt < 100; attempt++) {
      int first = low + ThreadLocalRandom.current().nextInt(slots) * size;
      if (allFree(first, span)) {
        int[] starts = new int[blocks];
        for (int i = 0; i < blocks; i++) {
          starts[i] = first + i * size;
        }
        return starts;
      }
    }
    throw new IOException("found no " + span + " consecutive free ports between " + low + " and 32000");
  }

  private static boolean allFree(int first, int count) {
    for (int port = first; port < first + count; port++) {
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        // free
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}

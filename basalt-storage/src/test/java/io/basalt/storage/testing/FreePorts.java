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
 * once died on "Address already in use" as its test cluster started). Single ports come from 10000-19999, blocks of
 * consecutive ports (a region server's replication ports) from 20000-32767.
 *
 * <p>When surefire runs several test JVMs at once it numbers them ({@code basalt.test.fork}, 1 and up); each then
 * takes its ports from its own quarter of both ranges, so a port one JVM handed out but whose server has not bound
 * it yet is never handed out by another.
 */
public final class FreePorts {
  private static final int SINGLE_FIRST = 10_000;
  private static final int SINGLE_SPAN = 10_000;
  private static final int BLOCK_FIRST = 20_000;
  private static final int BLOCK_SPAN = 12_768;
  private static final int MAX_FORKS = 4;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** {@code n} distinct ports free right now that this JVM has not handed out before. */
  public static synchronized int[] take(int n) throws IOException {
    Share share = share(SINGLE_FIRST, SINGLE_SPAN);
    int[] ports = new int[n];
    for (int i = 0; i < n; i++) {
      ports[i] = takeRun(share, 1);
    }
    return ports;
  }

  /** The first of {@code size} consecutive ports, all free right now and none handed out by this JVM before. */
  public static synchronized int takeBlock(int size) throws IOException {
    return takeRun(share(BLOCK_FIRST, BLOCK_SPAN), size);
  }

  private static int takeRun(Share share, int size) throws IOException {
    int starts = share.span - size + 1;
    for (int attempt = 0; starts > 0 && attempt < 4 * share.span; attempt++) {
      int first = share.first + ThreadLocalRandom.current().nextInt(starts);
      if (allFree(first, size)) {
        for (int p = first; p < first + size; p++) {
          HANDED_OUT.add(p);
        }
        return first;
      }
    }
    throw new IOException("no " + size + " free consecutive ports left in " + share.first + "-"
        + (share.first + share.span - 1));
  }

  private static boolean allFree(int first, int size) {
    for (int p = first; p < first + size; p++) {
      if (HANDED_OUT.contains(p) || !bindable(p)) {
        return false;
      }
    }
    return true;
  }

  private record Share(int first, int span) {}

  /** This JVM's part of {@code [first, first + span)}: all of it, or its fork's quarter. */
  private static Share share(int first, int span) {
    String fork = System.getProperty("basalt.test.fork", "");
    if (fork.isEmpty()) {
      return new Share(first, span);
    }
    int slice = span / MAX_FORKS;
    return new Share(first + Math.floorMod(Integer.parseInt(fork) - 1, MAX_FORKS) * slice, slice);
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

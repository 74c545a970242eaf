package io.basalt.it.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private network for a test: a bridge in the root namespace with an address, and N network namespaces, each
 * joined to the bridge by a veth pair and given its own address, {@code lo} up inside. A process started in a
 * namespace ({@link #exec}) reaches the bridge's address and the other namespaces; {@link #cut} sets the host
 * side of its veth down, so nothing goes in or out any more (a pulled cable: connections stay open, packets
 * vanish), and {@link #heal} brings it back.
 *
 * <p>Everything it makes is named {@code bsl<pid>...} after the JVM that made it, in a 10.213.S.0/24 subnet no
 * interface of the machine uses, so it never touches the machine's own interfaces and routes, and a later run
 * removes what a crashed run left (its JVM is gone) without disturbing one still running. Needs root.
 */
public final class NetNamespaces implements AutoCloseable {
  private static final String PREFIX = "bsl";
  private static final Pattern OWNED = Pattern.compile(PREFIX + "(\\d+)[a-z]\\d*");
  private static final long IP_TIMEOUT_SECONDS = 10;

  private final String owner = PREFIX + ProcessHandle.current().pid();
  private final String subnet;
  private final int size;
  private final List<String> namespaces = new ArrayList<>();
  private boolean bridgeMade;

  private NetNamespaces(String subnet, int size) {
    this.subnet = subnet;
    this.size = size;
  }

  /**
   * Why namespaces cannot be used here (not root, no {@code ip}, not permitted in this container), or empty if
   * they can: a probe namespace is made and removed.
   */
  public static Optional<String> unavailableReason() {
    String probe = PREFIX + ProcessHandle.current().pid() + "x";
    try {
      ip("netns", "add", probe);
      ip("netns", "del", probe);
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("network namespaces are not available (needs root and iproute2's `ip netns`): " + e.getMessage());
    }
  }

  /** Makes the bridge and {@code n} namespaces, after removing what crashed runs left. */
  public static NetNamespaces create(int n) throws IOException {
    if (n < 1 || n > 200) {
      throw new IllegalArgumentException("1 to 200 namespaces, not " + n);
    }
    removeLeftovers();
    NetNamespaces net = new NetNamespaces(freeSubnet(), n);
    try {
      net.build();
      return net;
    } catch (IOException | RuntimeException e) {
      net.close();
      throw e;
    }
  }

  private void build() throws IOException {
    String bridge = owner + "b";
    ip("link", "add", bridge, "type", "bridge");
    bridgeMade = true;
    ip("addr", "add", bridgeAddress() + "/24", "dev", bridge);
    ip("link", "set", bridge, "up");
    for (int i = 0; i < size; i++) {
      String ns = owner + "n" + i;
      ip("netns", "add", ns);
      namespaces.add(ns);
      String host = owner + "h" + i;
      String peer = owner + "p" + i;
      ip("link", "add", host, "type", "veth", "peer", "name", peer);
      ip("link", "set", peer, "netns", ns);
      ip("link", "set", host, "master", bridge);
      ip("link", "set", host, "up");
      ip("-n", ns, "link", "set", "lo", "up");
      ip("-n", ns, "addr", "add", address(i) + "/24", "dev", peer);
      ip("-n", ns, "link", "set", peer, "up");
    }
  }

  /** The bridge's address in the root namespace: where ZooKeeper and the master listen, and the test's client. */
  public String bridgeAddress() {
    return subnet + ".1";
  }

  /** The address of namespace {@code i}. */
  public String address(int i) {
    checkIndex(i);
    return subnet + "." + (10 + i);
  }

  public int size() {
    return size;
  }

  /** The command prefix that runs a program inside namespace {@code i} ({@code ip netns exec} execs it: same PID). */
  public List<String> exec(int i) {
    checkIndex(i);
    return List.of("ip", "netns", "exec", namespaces.get(i));
  }

  /** Cuts namespace {@code i} off from everything: its veth's bridge side goes down. */
  public void cut(int i) throws IOException {
    checkIndex(i);
    ip("link", "set", owner + "h" + i, "down");
  }

  /** Joins namespace {@code i} to the bridge again. */
  public void heal(int i) throws IOException {
    checkIndex(i);
    ip("link", "set", owner + "h" + i, "up");
  }

  private void checkIndex(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("namespace " + i + " of " + size);
    }
  }

  /** Removes the namespaces (with their veth pairs) and the bridge; best effort, every step tried. */
  @Override
  public void close() {
    for (String ns : namespaces) {
      quietly("netns", "del", ns);
    }
    namespaces.clear();
    for (int i = 0; i < size; i++) {
      if (linkExists(owner + "h" + i)) {
        quietly("link", "del", owner + "h" + i);
      }
    }
    if (bridgeMade) {
      quietly("link", "del", owner + "b");
      bridgeMade = false;
    }
  }

  /** Links and namespaces named by this class whose making JVM no longer runs. */
  private static void removeLeftovers() throws IOException {
    for (String line : ip("netns", "list").lines().toList()) {
      String name = line.split("\\s+")[0];
      if (orphaned(name)) {
        quietly("netns", "del", name);
      }
    }
    for (String line : ip("-o", "link", "show").lines().toList()) {
      // "7: bsl123h0@if6: <...>"
      String[] parts = line.split(":\\s+", 3);
      if (parts.length >= 2) {
        String name = parts[1].split("@")[0];
        if (orphaned(name) && linkExists(name)) {
          quietly("link", "del", name);
        }
      }
    }
  }

  private static boolean orphaned(String name) {
    Matcher m = OWNED.matcher(name);
    if (!m.matches()) {
      return false;
    }
    long pid = Long.parseLong(m.group(1));
    return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }

  /** The first 10.213.S.0/24 with no address or route of the machine in it. */
  private static String freeSubnet() throws IOException {
    // Every line starts with a space, so that " 10.213.S." finds a route's destination too.
    String used = (" " + ip("-o", "-4", "addr", "show") + "\n" + ip("-4", "route", "show", "table", "all"))
        .replace("\n", "\n ");
    for (int s = 0; s < 256; s++) {
      String subnet = "10.213." + s;
      if (!used.contains(" " + subnet + ".")) {
        return subnet;
      }
    }
    throw new IOException("no free 10.213.S.0/24 subnet on this machine");
  }

  private static boolean linkExists(String name) {
    try {
      ip("link", "show", name);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void quietly(String... args) {
    try {
      ip(args);
    } catch (IOException e) {
      System.err.println("NetNamespaces: cleanup step failed: " + e.getMessage());
    }
  }

  /** Runs {@code ip ARGS} with a timeout; its output, or an error with what it printed. */
  private static String ip(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add("ip");
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException("cannot run `ip` (iproute2): " + e.getMessage(), e);
    }
    // Read while it runs: a long listing must not fill the pipe and stall it.
    java.util.concurrent.CompletableFuture<String> output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(output unreadable: " + e + ")";
      }
    });
    try {
      p.getOutputStream().close();
      if (!p.waitFor(IP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("`" + String.join(" ", cmd) + "` did not finish in " + IP_TIMEOUT_SECONDS + " s");
      }
      String out;
      try {
        out = output.get(IP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        out = "(output unreadable: " + e + ")";
      }
      if (p.exitValue() != 0) {
        throw new IOException("`" + String.join(" ", cmd) + "` failed (exit " + p.exitValue() + "): " + out.trim());
      }
      return out;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running `" + String.join(" ", cmd) + "`", e);
    }
  }
}

package io.basalt.bench.replication;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The results of a run: a Markdown summary (one row per step, averaged over the region servers; the same per
 * server; the cost per member between steps; the thread-name groups of one server) and CSV files
 * ({@code resources.csv}: one row per step and server; {@code threads.csv}: thread-name groups).
 */
final class ResourceReport {
  /** One measured step: what it asked for, how adding its regions went, and the idle window after. */
  record Step(int members, MemberLoad.Growth growth, IdleWindow.Result window) {}

  private final List<String> facts;
  private final List<Step> steps = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  ResourceReport(List<String> facts) {
    this.facts = facts;
  }

  void add(Step step) {
    steps.add(step);
  }

  void note(String note) {
    notes.add(note);
  }

  List<Step> steps() {
    return steps;
  }

  private static double mean(Step s, ToDoubleFunction<IdleWindow.Server> f) {
    return s.window().servers().stream().filter(IdleWindow.Server::alive).mapToDouble(f).average().orElse(Double.NaN);
  }

  private static double membersOf(Step s) {
    return mean(s, IdleWindow.Server::membersOnDisk);
  }

  private static double mb(long kb) {
    return kb < 0 ? Double.NaN : kb / 1024.0;
  }

  private static String f1(double d) {
    return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.1f", d);
  }

  private static String f2(double d) {
    return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.2f", d);
  }

  private static String f3(double d) {
    return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
  }

  String markdown() {
    StringBuilder md = new StringBuilder("# Resources of replicated region members at idle\n\n");
    facts.forEach(f -> md.append("- ").append(f).append('\n'));
    md.append("\n## Per step (mean of the region servers)\n\n");
    md.append("| members per server | threads | listen ports | fds | RSS MB | PSS MB | CPU % idle | create time "
        + "| members on disk (min-max) | replication ports listening | TCP established | inotify instances | heap after GC MB "
        + "| regions added | write time | machine busy % |\n");
    md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Step s : steps) {
      List<IdleWindow.Server> alive = s.window().servers().stream().filter(IdleWindow.Server::alive).toList();
      int min = s.window().servers().stream().mapToInt(IdleWindow.Server::membersOnDisk).min().orElse(0);
      int max = s.window().servers().stream().mapToInt(IdleWindow.Server::membersOnDisk).max().orElse(0);
      md.append(String.format(Locale.ROOT, "| %d%s | %s | %s | %s | %s | %s | %s | %.1f s | %d-%d | %s | %s | %s | %s | %d | %.1f s | %s |%n",
          s.members(), alive.size() < s.window().servers().size() ? " (" + alive.size() + " servers alive)" : "",
          f1(mean(s, v -> v.end().threads())), f1(mean(s, v -> v.end().listenPorts().size())),
          f1(mean(s, v -> v.end().fds())), f1(mean(s, v -> mb(v.end().rssKb()))), f1(mean(s, v -> mb(v.end().pssKb()))),
          f2(mean(s, IdleWindow.Server::cpuPercent)), s.growth().createSeconds(), min, max,
          f1(mean(s, IdleWindow.Server::replicationPortsListening)), f1(mean(s, v -> v.end().tcpEstablished())),
          f1(mean(s, v -> v.end().inotifyInstances())), f1(mean(s, IdleWindow.Server::heapAfterGcMb)), s.growth().regionsAdded(), s.growth().writeSeconds(),
          f1(s.window().machineBusyPercent())));
    }
    md.append("\nCPU % idle: utime+stime over the window as a percentage of one core. Create time: the "
        + "`Admin.createTable` calls of the step (regions added in that step only); write time: the rows written "
        + "into them. Machine busy %: all cores, all processes on the machine, over the same window.\n");

    md.append("\n## Per region server\n\n");
    md.append("| members per server | server | pid | members on disk | threads | listen ports | replication ports "
        + "listening | TCP established | fds | inotify instances | RSS MB | PSS MB | CPU % idle | heap after GC MB |\n");
    md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Step s : steps) {
      for (IdleWindow.Server v : s.window().servers()) {
        if (!v.alive()) {
          md.append(String.format("| %d | %s | %d | %d | dead | | | | | | | | | |%n", s.members(), v.name(), v.pid(),
              v.membersOnDisk()));
          continue;
        }
        md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s |%n",
            s.members(), v.name(), v.pid(), v.membersOnDisk(), v.end().threads(), v.end().listenPorts().size(),
            v.replicationPortsListening(), v.end().tcpEstablished(), v.end().fds(), v.end().inotifyInstances(), f1(mb(v.end().rssKb())),
            f1(mb(v.end().pssKb())), f2(v.cpuPercent()), f1(v.heapAfterGcMb())));
      }
    }

    List<Step> ok = steps.stream().filter(s -> s.window().servers().stream().allMatch(IdleWindow.Server::alive)).toList();
    List<Step[]> pairs = new ArrayList<>();
    for (int i = 1; i < ok.size(); i++) {
      pairs.add(new Step[] {ok.get(i - 1), ok.get(i)});
    }
    if (ok.size() > 2) {
      pairs.add(new Step[] {ok.get(0), ok.get(ok.size() - 1)});
    }
    pairs.removeIf(p -> membersOf(p[1]) - membersOf(p[0]) <= 0);
    if (!pairs.isEmpty()) {
      md.append("\n## Cost per member (difference between steps / difference in members on disk, mean of the servers)\n\n");
      md.append("| from → to members | threads/member | listen ports/member | fds/member | TCP established/member "
          + "| inotify instances/member | RSS MB/member | PSS MB/member | heap after GC MB/member | CPU % idle/member |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Step[] p : pairs) {
        double dm = membersOf(p[1]) - membersOf(p[0]);
        md.append(String.format(Locale.ROOT, "| %s → %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
            f1(membersOf(p[0])), f1(membersOf(p[1])),
            f2(delta(p, v -> v.end().threads()) / dm), f2(delta(p, v -> v.end().listenPorts().size()) / dm),
            f2(delta(p, v -> v.end().fds()) / dm), f2(delta(p, v -> v.end().tcpEstablished()) / dm),
            f2(delta(p, v -> v.end().inotifyInstances()) / dm),
            f2(delta(p, v -> mb(v.end().rssKb())) / dm), f2(delta(p, v -> mb(v.end().pssKb())) / dm),
            f2(delta(p, IdleWindow.Server::heapAfterGcMb) / dm), f3(delta(p, IdleWindow.Server::cpuPercent) / dm)));
      }
    }

    if (!steps.isEmpty() && !steps.get(0).window().servers().isEmpty()) {
      String server = steps.get(0).window().servers().get(0).name();
      md.append("\n## Threads of ").append(server).append(" by name (digits as #), the 15 largest groups at the last step\n\n");
      md.append("| thread name |");
      steps.forEach(s -> md.append(' ').append(s.members()).append(" members |"));
      md.append("\n|---|");
      steps.forEach(s -> md.append("---:|"));
      md.append('\n');
      Step last = steps.get(steps.size() - 1);
      Set<String> names = last.window().servers().get(0).threadGroups().entrySet().stream()
          .sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed()
              .thenComparing(java.util.Map.Entry.comparingByKey()))
          .limit(15).map(java.util.Map.Entry::getKey).collect(Collectors.toCollection(LinkedHashSet::new));
      for (String name : names) {
        md.append("| `").append(name).append("` |");
        for (Step s : steps) {
          md.append(' ').append(s.window().servers().get(0).threadGroups().getOrDefault(name, 0)).append(" |");
        }
        md.append('\n');
      }
    }
    if (!notes.isEmpty()) {
      md.append("\n## Notes\n\n");
      notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
    return md.toString();
  }

  private static double delta(Step[] p, ToDoubleFunction<IdleWindow.Server> f) {
    return mean(p[1], f) - mean(p[0], f);
  }

  void writeCsv(Path dir) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("resources.csv"), StandardCharsets.UTF_8))) {
      w.println("members_per_server,server,pid,alive,members_on_disk,threads,listen_ports,replication_ports_listening,"
          + "tcp_established,fds,rss_mb,pss_mb,cpu_percent_idle,heap_after_gc_mb,regions_added,create_s,write_s,"
          + "window_s,machine_busy_percent,inotify_instances,failure");
      for (Step s : steps) {
        for (IdleWindow.Server v : s.window().servers()) {
          ProcSnapshot e = v.end();
          w.println(String.join(",", Integer.toString(s.members()), v.name(), Long.toString(v.pid()),
              Boolean.toString(v.alive()), Integer.toString(v.membersOnDisk()),
              e == null ? "" : Integer.toString(e.threads()), e == null ? "" : Integer.toString(e.listenPorts().size()),
              Long.toString(v.replicationPortsListening()), e == null ? "" : Integer.toString(e.tcpEstablished()),
              e == null ? "" : Integer.toString(e.fds()), e == null ? "" : csv(mb(e.rssKb())),
              e == null ? "" : csv(mb(e.pssKb())), csv(v.cpuPercent()), csv(v.heapAfterGcMb()),
              Integer.toString(s.growth().regionsAdded()), csv(s.growth().createSeconds()),
              csv(s.growth().writeSeconds()), csv(s.window().windowSeconds()), csv(s.window().machineBusyPercent()),
              e == null ? "" : Integer.toString(e.inotifyInstances()),
              s.growth().failure() == null ? "" : "\"" + s.growth().failure().replace("\"", "\"\"") + "\""));
        }
      }
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("threads.csv"), StandardCharsets.UTF_8))) {
      w.println("members_per_server,server,thread_name,count");
      for (Step s : steps) {
        for (IdleWindow.Server v : s.window().servers()) {
          v.threadGroups().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey(Comparator.naturalOrder()))
              .forEach(g -> w.println(s.members() + "," + v.name() + ",\"" + g.getKey().replace("\"", "\"\"") + "\","
                  + g.getValue()));
        }
      }
    }
  }

  private static String csv(double d) {
    return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.3f", d);
  }
}

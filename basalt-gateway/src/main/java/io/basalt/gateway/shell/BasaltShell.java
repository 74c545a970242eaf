package io.basalt.gateway.shell;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.jruby.embed.LocalContextScope;
import org.jruby.embed.LocalVariableBehavior;
import org.jruby.embed.PathType;
import org.jruby.embed.ScriptingContainer;

/**
 * HBase's shell language on JRuby: loads our Ruby command definitions (resources under basalt/shell) into one
 * Ruby runtime and hands it the arguments. The commands use only the HBase client ({@code Connection},
 * {@code Admin}, {@code Table}), so the shell works against any HBase-compatible cluster.
 */
public final class BasaltShell {
  private BasaltShell() {}

  /**
   * Runs the shell: {@code args} are a script path and/or {@code -n}/{@code --noninteractive}; without a
   * script, statements come from {@code in} (interactive with history and completion when it is a terminal).
   *
   * @return the process exit code: 0, or 1 when a script or a non-interactive session failed
   */
  public static int run(Configuration conf, List<String> args, InputStream in, PrintStream out, PrintStream err,
      boolean terminal) {
    ScriptingContainer ruby = new ScriptingContainer(LocalContextScope.SINGLETHREAD,
        LocalVariableBehavior.TRANSIENT);
    try {
      ruby.setInput(in);
      ruby.setOutput(out);
      ruby.setError(err);
      ruby.setArgv(args.toArray(new String[0]));
      ruby.runScriptlet(PathType.CLASSPATH, "basalt/shell/shell.rb");
      Object main = ruby.runScriptlet("Basalt::Shell");
      Object code = ruby.callMethod(main, "main", conf, args.toArray(new String[0]), terminal);
      return ((Number) code).intValue();
    } finally {
      out.flush();
      err.flush();
      ruby.terminate();
    }
  }
}

/**
 * {@code bin/basalt shell}: HBase's shell language (a Ruby DSL) on JRuby, over the HBase client, so it works
 * against any HBase-compatible cluster.
 *
 * <p>{@link io.basalt.gateway.shell.BasaltShell} starts one Ruby runtime and loads the command definitions,
 * which are Ruby resources under {@code basalt/shell}: {@code arguments.rb} (HBase's argument syntax to client
 * objects), {@code commands_tables.rb}, {@code commands_data.rb}, {@code commands_cluster.rb},
 * {@code output.rb} (HBase's output format and error wording), {@code session.rb} (the connection and the scope
 * statements share), {@code repl.rb} (prompt, history, completion, stdin). JRuby ({@code jruby-complete}) because
 * HBase users' shell scripts are Ruby: see docs/operations.md, "The shell".
 */
package io.basalt.gateway.shell;

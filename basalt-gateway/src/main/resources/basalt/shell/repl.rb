# The statement loop: on a terminal with a prompt, history (~/.basalt_shell_history) and tab completion of
# command names; otherwise statements from stdin. Like irb, a statement spans lines until it parses, and a
# value other than nil is echoed as "=> value".
require 'readline'

module Basalt
  class Repl
    HISTORY = File.join(Dir.home, '.basalt_shell_history')
    HISTORY_LIMIT = 1000

    def initialize(session, interactive, stop_on_error)
      @session = session
      @interactive = interactive
      @stop_on_error = stop_on_error
    end

    # @return the exit code
    def run
      load_history if @interactive
      pending = +''
      line_no = 0
      while (line = next_line(pending.empty?))
        line_no += 1
        pending << line << "\n"
        next if incomplete?(pending)

        statement = pending
        pending = +''
        next if statement.strip.empty?

        code = evaluate(statement, line_no)
        return code unless code.nil?
      end
      if !pending.strip.empty?
        code = evaluate(pending, line_no)
        return code unless code.nil?
      end
      puts if @interactive
      0
    ensure
      save_history if @interactive
    end

    private

    # nil to go on, or the exit code to stop with.
    def evaluate(statement, line_no)
      value = @session.evaluate(statement, '(shell)', line_no)
      puts "=> #{value.inspect}" unless value.nil?
      nil
    rescue ExitShell => e
      e.code
    rescue CommandFailed
      @stop_on_error ? 1 : nil
    rescue ScriptError, StandardError, java.lang.Throwable => e
      Output.error_line(e)
      @stop_on_error ? 1 : nil
    end

    def next_line(fresh)
      if @interactive
        Readline.readline(fresh ? 'basalt> ' : 'basalt* ', true)
      else
        $stdin.gets&.chomp
      end
    end

    # A statement still open (a block, a hash, a string) parses with "unexpected end-of-input".
    # The BEGIN block throws before anything runs, so this only parses.
    def incomplete?(code)
      catch(:parsed) { eval("BEGIN { throw :parsed }\n#{code}", TOPLEVEL_BINDING) }
      false
    rescue SyntaxError => e
      e.message.match?(/end-of-(input|file)|unterminated/)
    end

    def load_history
      Readline.completion_proc = proc do |prefix|
        Session.command_names.select { |name| name.start_with?(prefix) }
      end
      return unless File.readable?(HISTORY)

      File.readlines(HISTORY, chomp: true).last(HISTORY_LIMIT).each { |l| Readline::HISTORY.push(l) }
    end

    def save_history
      lines = Readline::HISTORY.to_a.last(HISTORY_LIMIT)
      File.write(HISTORY, lines.join("\n") + "\n")
    rescue SystemCallError => e
      warn "Could not save history to #{HISTORY}: #{e.message}"
    end
  end
end

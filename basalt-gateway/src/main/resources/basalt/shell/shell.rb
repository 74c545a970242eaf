# Basalt's shell: HBase's shell language (a Ruby DSL) over the HBase Java client.
# Entry point Basalt::Shell.main (called by io.basalt.gateway.shell.BasaltShell); the commands are in
# commands_*.rb, argument parsing in arguments.rb, output in output.rb.
require 'java'
require_relative 'constants'
require_relative 'output'
require_relative 'arguments'
require_relative 'commands_tables'
require_relative 'commands_data'
require_relative 'commands_cluster'
require_relative 'commands_snapshots'
require_relative 'session'
require_relative 'repl'

module Basalt
  module Shell
    # Exit codes as HBase's shell: 0, or 1 after a failed command in a script or a non-interactive session.
    def self.main(conf, argv, terminal)
      args = argv.to_a
      noninteractive = !(args.delete('-n').nil? && args.delete('--noninteractive').nil?)
      unknown = args.select { |a| a.start_with?('-') }
      unless unknown.empty?
        $stderr.puts "Unknown option(s): #{unknown.join(' ')} (usage: basalt shell [-n] [SCRIPT.rb])"
        return 2
      end
      session = Session.new(conf)
      begin
        if args.empty?
          Repl.new(session, terminal && !noninteractive, noninteractive).run
        else
          run_script(session, args.first)
        end
      ensure
        session.close
      end
    end

    def self.run_script(session, path)
      unless File.file?(path)
        $stderr.puts "ERROR: no such script: #{path}"
        return 1
      end
      begin
        session.evaluate(File.read(path), path)
        0
      rescue ExitShell => e
        e.code
      rescue CommandFailed
        1
      rescue ScriptError, StandardError => e
        Output.error_line(e)
        1
      end
    end
  end
end

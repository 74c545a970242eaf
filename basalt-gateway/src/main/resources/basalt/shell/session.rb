# One shell session: the cluster connection (opened on first use) and the scope every statement runs in, so
# variables and loops span statements as in HBase's irb-based shell.
module Basalt
  class Session
    include Arguments
    include TableCommands
    include DataCommands
    include ClusterCommands
    include SnapshotCommands

    attr_reader :conf

    def initialize(conf)
      @conf = conf
      @scope = instance_eval { binding }
    end

    def evaluate(code, file = '(shell)', line = 1)
      @scope.eval(code, file, line)
    end

    def connection
      @connection ||= org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(@conf)
    end

    def admin
      @admin ||= connection.getAdmin
    end

    def close
      @admin&.close
      @connection&.close
    end

    # The method names a user can type (completion, `help`).
    def self.command_names
      [TableCommands, DataCommands, ClusterCommands, SnapshotCommands].flat_map(&:public_instance_methods).map(&:to_s).sort
    end

    private

    # Runs one command as HBase does: the command's output, then "Took S seconds"; a failure prints HBase's
    # ERROR line and is raised as CommandFailed so scripts and -n sessions stop with a non-zero exit.
    def command(name)
      started = Time.now
      result = yield
      Output.took(started)
      result
    rescue CommandFailed, ExitShell
      raise
    rescue ArgumentError, StandardError, java.lang.Throwable => e
      Output.error_line(e, name)
      Output.took(started)
      raise CommandFailed, Output.message_of(e)
    end

    def table_name(name)
      raise ArgumentError, 'Table name must be a String' unless name.is_a?(String)

      org.apache.hadoop.hbase.TableName.valueOf(name)
    end

    def bytes(value)
      org.apache.hadoop.hbase.util.Bytes.toBytes(value.to_s)
    end

    def with_table(name)
      table = connection.getTable(table_name(name))
      begin
        yield table
      ensure
        table.close
      end
    end
  end

  # What `create` returns, shown by irb as HBase shows it.
  class TableRef
    attr_reader :name

    def initialize(name)
      @name = name
    end

    def inspect
      "Hbase::Table - #{@name}"
    end
    alias to_s inspect
  end
end

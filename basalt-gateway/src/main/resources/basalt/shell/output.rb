# Output in HBase's shell format: two-column listings (" ROW  COLUMN+CELL"), "N row(s)", "Took S seconds",
# and "ERROR: ..." lines with HBase's wording for the errors users meet most.
module Basalt
  # A command failed; its ERROR line is already printed.
  class CommandFailed < StandardError; end

  # `exit` in a script or at the prompt.
  class ExitShell < StandardError
    attr_reader :code

    def initialize(code)
      super("exit #{code}")
      @code = code
    end
  end

  module Output
    module_function

    def header(left, right)
      puts "#{left.ljust(column_width)} #{right}"
    end

    # HBase insets data rows by one space under their header.
    def row(left, right)
      puts " #{left.ljust(column_width - 1)} #{right}"
    end

    # HBase pads the first column (a quarter of the terminal); a fixed width keeps scripts' output stable.
    def column_width
      33
    end

    def rows(count)
      puts "#{count} row(s)"
    end

    def took(started)
      puts format('Took %.4f seconds', Time.now - started)
    end

    def binary(bytes)
      org.apache.hadoop.hbase.util.Bytes.toStringBinary(bytes)
    end

    # HBase 2.5+ prints cell timestamps as local date-times.
    def timestamp(millis)
      instant = java.time.Instant.ofEpochMilli(millis)
      java.time.LocalDateTime.ofInstant(instant, java.time.ZoneId.systemDefault).toString
    end

    def cell_text(cell)
      ts = timestamp(cell.getTimestamp)
      type = cell.getType.toString
      if type == 'Put'
        "timestamp=#{ts}, value=#{binary(org.apache.hadoop.hbase.CellUtil.cloneValue(cell))}"
      else
        "timestamp=#{ts}, type=#{type}"
      end
    end

    def column_name(cell)
      family = binary(org.apache.hadoop.hbase.CellUtil.cloneFamily(cell))
      "#{family}:#{binary(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell))}"
    end

    def error_line(error, command = nil)
      puts "ERROR: #{message_of(error)}"
      return unless command

      puts
      puts "For usage try 'help \"#{command}\"'"
      puts
    end

    # HBase's shell words for the client's exceptions (its hbase/shell.rb translate_hbase_exceptions).
    def message_of(error)
      cause = java_cause(error)
      return error.message.to_s unless cause

      name = cause.java_class.name
      # Remote exceptions repeat their class name before the message.
      text = cause.getMessage.to_s.lines.first.to_s.strip.sub(/\A[\w.$]+(Exception|Error): /, '')
      case name
      when 'org.apache.hadoop.hbase.TableNotFoundException' then "Unknown table #{text}!"
      when 'org.apache.hadoop.hbase.TableExistsException' then "Table already exists: #{text}!"
      when 'org.apache.hadoop.hbase.NamespaceNotFoundException' then "Unknown namespace #{text}!"
      when 'org.apache.hadoop.hbase.NamespaceExistException' then "Namespace already exists: #{text}!"
      when 'org.apache.hadoop.hbase.TableNotEnabledException' then "Table #{text} is disabled!"
      when 'org.apache.hadoop.hbase.TableNotDisabledException' then "Table #{text} is enabled. Disable it first."
      when 'org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException'
        "Unknown column family! #{text}"
      else "#{name.split('.').last}: #{text}"
      end
    end

    # The Java exception behind a Ruby error (JRuby wraps them), unwrapping the client's remote wrappers.
    def java_cause(error)
      cause = error.is_a?(java.lang.Throwable) ? error : nil
      cause ||= error.cause if error.respond_to?(:cause) && error.cause.is_a?(java.lang.Throwable)
      return nil unless cause

      if cause.is_a?(org.apache.hadoop.ipc.RemoteException)
        unwrapped = cause.unwrapRemoteException
        cause = unwrapped unless unwrapped.nil?
      end
      while cause.getCause && (cause.is_a?(java.lang.reflect.UndeclaredThrowableException) ||
          cause.is_a?(java.util.concurrent.ExecutionException) || cause.is_a?(java.io.UncheckedIOException) ||
          cause.is_a?(org.apache.hadoop.hbase.client.RetriesExhaustedException))
        cause = cause.getCause
      end
      cause
    end
  end
end

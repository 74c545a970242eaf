# Data commands with HBase's syntax and output: put, get, scan, delete, deleteall, incr, get_counter, count.
module Basalt
  module DataCommands
    GET_KEYS = %w[COLUMN COLUMNS TIMESTAMP TIMERANGE VERSIONS FILTER ATTRIBUTES MAXLENGTH FORMATTER].freeze

    # put 't', 'r', 'f:q', 'value' [, timestamp]
    def put(table, row, column, value, timestamp = nil)
      command('put') do
        family, qualifier = split_column(column)
        p = org.apache.hadoop.hbase.client.Put.new(bytes(row))
        if timestamp
          p.addColumn(family, qualifier || bytes(''), Integer(timestamp), bytes(value))
        else
          p.addColumn(family, qualifier || bytes(''), bytes(value))
        end
        with_table(table) { |t| t.put(p) }
        nil
      end
    end

    # get 't', 'r' [, 'f:q' | ['f:a', 'f:b'] | {COLUMN => ..., VERSIONS => 3, TIMERANGE => [a, b], FILTER => "..."}]
    def get(table, row, *args)
      command('get') do
        options = args.first.is_a?(Hash) ? args.first : { COLUMNS => args.flatten }
        check_keys(options, GET_KEYS, 'get')
        g = org.apache.hadoop.hbase.client.Get.new(bytes(row))
        add_columns(g, options[COLUMNS] || options[COLUMN])
        g.readVersions(int_arg(options, VERSIONS)) if options[VERSIONS]
        g.setFilter(filter_arg(options[FILTER])) if options[FILTER]
        apply_time(g, options)
        result = with_table(table) { |t| t.get(g) }
        Output.header('COLUMN', 'CELL')
        cells = result.rawCells || []
        cells.each { |cell| Output.row(Output.column_name(cell), Output.cell_text(cell)) }
        Output.rows(cells.empty? ? 0 : 1)
        nil
      end
    end

    # scan 't' [, {COLUMNS => [...], LIMIT => 10, STARTROW => 'a', STOPROW => 'z', FILTER => "PrefixFilter('r')",
    #              TIMERANGE => [a, b], VERSIONS => 3, RAW => true, REVERSED => true}]
    def scan(table, options = {})
      command('scan') do
        raise ArgumentError, "scan options must be a Hash, not #{options.inspect}" unless options.is_a?(Hash)

        s = scan_of(options)
        Output.header('ROW', 'COLUMN+CELL')
        rows = 0
        with_table(table) do |t|
          scanner = t.getScanner(s)
          begin
            scanner.each do |result|
              rows += 1
              key = Output.binary(result.getRow)
              result.rawCells.each do |cell|
                Output.row(key, "column=#{Output.column_name(cell)}, #{Output.cell_text(cell)}")
              end
            end
          ensure
            scanner.close
          end
        end
        Output.rows(rows)
        nil
      end
    end

    # delete 't', 'r', 'f:q' [, timestamp]: every version of the cell up to the timestamp, as HBase's shell does.
    def delete(table, row, column, timestamp = nil)
      command('delete') do
        d = org.apache.hadoop.hbase.client.Delete.new(bytes(row))
        family, qualifier = split_column(column)
        if timestamp
          d.addColumns(family, qualifier || bytes(''), Integer(timestamp))
        else
          d.addColumns(family, qualifier || bytes(''))
        end
        with_table(table) { |t| t.delete(d) }
        nil
      end
    end

    # deleteall 't', 'r' [, 'f' | 'f:q'] [, timestamp]
    def deleteall(table, row, column = nil, timestamp = nil)
      command('deleteall') do
        d = org.apache.hadoop.hbase.client.Delete.new(bytes(row))
        if column
          family, qualifier = split_column(column)
          if qualifier
            timestamp ? d.addColumns(family, qualifier, Integer(timestamp)) : d.addColumns(family, qualifier)
          else
            timestamp ? d.addFamily(family, Integer(timestamp)) : d.addFamily(family)
          end
        end
        with_table(table) { |t| t.delete(d) }
        nil
      end
    end

    def incr(table, row, column, value = 1)
      command('incr') do
        family, qualifier = split_column(column)
        counter = with_table(table) do |t|
          t.incrementColumnValue(bytes(row), family, qualifier || bytes(''), Integer(value))
        end
        puts "COUNTER VALUE = #{counter}"
        nil
      end
    end

    def get_counter(table, row, column)
      command('get_counter') do
        family, qualifier = split_column(column)
        result = with_table(table) do |t|
          t.get(org.apache.hadoop.hbase.client.Get.new(bytes(row)).addColumn(family, qualifier || bytes('')))
        end
        value = result.getValue(family, qualifier || bytes(''))
        if value.nil?
          puts 'No counter found at specified coordinates'
        elsif value.length != 8
          raise ArgumentError, "The cell is not a counter: it holds #{value.length} bytes, not 8"
        else
          puts "COUNTER VALUE = #{org.apache.hadoop.hbase.util.Bytes.toLong(value)}"
        end
        nil
      end
    end

    # count 't' [, INTERVAL => 1000, CACHE => 10, FILTER => "..."]
    def count(table, options = {})
      command('count') do
        options = { INTERVAL => options } if options.is_a?(Integer)
        interval = options[INTERVAL] ? Integer(options[INTERVAL]) : 1000
        s = scan_of(options.reject { |k, _| k == INTERVAL })
        s.setFilter(org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter.new) unless options[FILTER]
        rows = 0
        with_table(table) do |t|
          scanner = t.getScanner(s)
          begin
            scanner.each do |result|
              rows += 1
              puts "Current count: #{rows}, row: #{Output.binary(result.getRow)}" if (rows % interval).zero?
            end
          ensure
            scanner.close
          end
        end
        Output.rows(rows)
        rows
      end
    end
  end
end

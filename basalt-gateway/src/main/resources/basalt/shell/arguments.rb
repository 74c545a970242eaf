# HBase's argument syntax turned into client objects: column family specs ({NAME => 'f', VERSIONS => 3}),
# column lists ('f', 'f:q'), scan and get options (COLUMNS, LIMIT, STARTROW, STOPROW, FILTER, TIMERANGE, ...).
module Basalt
  module Arguments
    FAMILY_KEYS = %w[NAME VERSIONS MIN_VERSIONS TTL IN_MEMORY BLOCKCACHE BLOCKSIZE BLOOMFILTER COMPRESSION
                     DATA_BLOCK_ENCODING KEEP_DELETED_CELLS REPLICATION_SCOPE METHOD CONFIGURATION].freeze
    SCAN_KEYS = %w[COLUMNS COLUMN LIMIT STARTROW STOPROW ROWPREFIXFILTER FILTER TIMERANGE TIMESTAMP VERSIONS RAW
                   REVERSED CACHE CACHE_BLOCKS ATTRIBUTES MAXLENGTH FORMATTER].freeze

    private

    def family_descriptor(spec, base = nil)
      spec = { NAME => spec } if spec.is_a?(String)
      raise ArgumentError, "Column family spec must be a String or a Hash, not #{spec.class}" unless spec.is_a?(Hash)

      unknown = spec.keys.map(&:to_s) - FAMILY_KEYS
      raise ArgumentError, "Unknown argument(s) for a column family: #{unknown.join(', ')}" unless unknown.empty?
      name = spec[NAME] or raise ArgumentError, 'Column family spec needs NAME'
      b = if base
            org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(base)
          else
            org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(bytes(name))
          end
      b.setMaxVersions(int_arg(spec, VERSIONS)) if spec.key?(VERSIONS)
      b.setMinVersions(int_arg(spec, MIN_VERSIONS)) if spec.key?(MIN_VERSIONS)
      b.setTimeToLive(int_arg(spec, TTL)) if spec.key?(TTL)
      b.setInMemory(bool_arg(spec, IN_MEMORY)) if spec.key?(IN_MEMORY)
      b.setBlockCacheEnabled(bool_arg(spec, BLOCKCACHE)) if spec.key?(BLOCKCACHE)
      b.setBlocksize(int_arg(spec, BLOCKSIZE)) if spec.key?(BLOCKSIZE)
      b.setScope(int_arg(spec, REPLICATION_SCOPE)) if spec.key?(REPLICATION_SCOPE)
      if spec.key?(BLOOMFILTER)
        b.setBloomFilterType(org.apache.hadoop.hbase.regionserver.BloomType.valueOf(spec[BLOOMFILTER].to_s.upcase))
      end
      if spec.key?(COMPRESSION)
        b.setCompressionType(
          org.apache.hadoop.hbase.io.compress.Compression::Algorithm.valueOf(spec[COMPRESSION].to_s.upcase)
        )
      end
      if spec.key?(DATA_BLOCK_ENCODING)
        b.setDataBlockEncoding(
          org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.valueOf(spec[DATA_BLOCK_ENCODING].to_s.upcase)
        )
      end
      if spec.key?(KEEP_DELETED_CELLS)
        b.setKeepDeletedCells(
          org.apache.hadoop.hbase.KeepDeletedCells.valueOf(spec[KEEP_DELETED_CELLS].to_s.upcase)
        )
      end
      (spec[CONFIGURATION] || {}).each { |k, v| b.setConfiguration(k.to_s, v.to_s) }
      b.build
    end

    def int_arg(hash, key)
      Integer(hash[key].to_s)
    rescue ArgumentError
      raise ArgumentError, "#{key} must be an integer, not #{hash[key].inspect}"
    end

    def bool_arg(hash, key)
      value = hash[key].to_s.downcase
      unless %w[true false].include?(value)
        raise ArgumentError, "#{key} must be true or false, not #{hash[key].inspect}"
      end

      value == 'true'
    end

    # 'f' or 'f:q' as HBase's shell reads a column.
    def split_column(column)
      family, qualifier = column.to_s.split(':', 2)
      [bytes(family), qualifier.nil? ? nil : bytes(qualifier)]
    end

    def add_columns(target, columns)
      Array(columns).each do |column|
        family, qualifier = split_column(column)
        qualifier.nil? ? target.addFamily(family) : target.addColumn(family, qualifier)
      end
    end

    def check_keys(options, allowed, command)
      unknown = options.keys.map(&:to_s) - allowed
      raise ArgumentError, "Unknown argument(s) for #{command}: #{unknown.join(', ')}" unless unknown.empty?
    end

    # A filter string in HBase's filter language, or a Filter object built in Ruby.
    def filter_arg(filter)
      return filter if filter.is_a?(org.apache.hadoop.hbase.filter.Filter)
      raise ArgumentError, "FILTER must be a filter string, not #{filter.class}" unless filter.is_a?(String)

      org.apache.hadoop.hbase.filter.ParseFilter.new.parseFilterString(filter)
    end

    def scan_of(options)
      check_keys(options, SCAN_KEYS, 'scan')
      scan = org.apache.hadoop.hbase.client.Scan.new
      scan.withStartRow(bytes(options[STARTROW])) if options[STARTROW]
      scan.withStopRow(bytes(options[STOPROW])) if options[STOPROW]
      scan.setRowPrefixFilter(bytes(options[ROWPREFIXFILTER])) if options[ROWPREFIXFILTER]
      add_columns(scan, options[COLUMNS] || options[COLUMN])
      scan.setFilter(filter_arg(options[FILTER])) if options[FILTER]
      scan.setReversed(true) if options[REVERSED]
      scan.setRaw(true) if options[RAW]
      scan.setCaching(int_arg(options, CACHE)) if options[CACHE]
      scan.setCacheBlocks(options[CACHE_BLOCKS]) unless options[CACHE_BLOCKS].nil?
      scan.readVersions(int_arg(options, VERSIONS)) if options[VERSIONS]
      apply_time(scan, options)
      scan.setLimit(int_arg(options, LIMIT)) if options[LIMIT]
      scan
    end

    def apply_time(query, options)
      if options[TIMERANGE]
        range = options[TIMERANGE]
        raise ArgumentError, 'TIMERANGE must be [MIN, MAX]' unless range.is_a?(Array) && range.size == 2

        query.setTimeRange(Integer(range[0]), Integer(range[1]))
      end
      query.setTimestamp(Integer(options[TIMESTAMP])) if options[TIMESTAMP]
    end
  end
end

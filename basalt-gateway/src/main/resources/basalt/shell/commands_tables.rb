# DDL commands with HBase's syntax and output: tables and namespaces.
module Basalt
  module TableCommands
    TABLE_KEYS = %w[SPLITS MAX_FILESIZE READONLY DURABILITY REGION_REPLICATION
                    MEMSTORE_FLUSHSIZE METADATA].freeze

    # create 't', 'f1', {NAME => 'f2', VERSIONS => 3}, SPLITS => ['a', 'm']
    def create(name, *specs)
      command('create') do
        table_options = specs.last.is_a?(Hash) && !specs.last.key?(NAME) ? specs.pop : {}
        check_keys(table_options, TABLE_KEYS, 'create')
        raise ArgumentError, 'Table must have at least one column family' if specs.empty?

        builder = org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(table_name(name))
        specs.each { |spec| builder.setColumnFamily(family_descriptor(spec)) }
        builder.setMaxFileSize(Integer(table_options[MAX_FILESIZE])) if table_options[MAX_FILESIZE]
        builder.setReadOnly(table_options[READONLY].to_s == 'true') if table_options.key?(READONLY)
        builder.setRegionReplication(Integer(table_options[REGION_REPLICATION])) if table_options[REGION_REPLICATION]
        (table_options[METADATA] || {}).each { |k, v| builder.setValue(k.to_s, v.to_s) }
        splits = split_keys(table_options)
        if splits
          admin.createTable(builder.build, splits)
        else
          admin.createTable(builder.build)
        end
        puts "Created table #{name}"
        TableRef.new(name)
      end
    end

    # alter 't', NAME => 'f', VERSIONS => 5 | alter 't', 'delete' => 'f' | alter 't', NAME => 'f', METHOD => 'delete'
    def alter(name, *changes)
      command('alter') do
        raise ArgumentError, 'alter needs at least one change' if changes.empty?

        tn = table_name(name)
        puts 'Updating all regions with the new schema...'
        changes.each do |change|
          change = { NAME => change } if change.is_a?(String)
          raise ArgumentError, "alter takes column family specs, not #{change.inspect}" unless change.is_a?(Hash)

          if change.key?('delete') || change[METHOD].to_s == 'delete'
            admin.deleteColumnFamily(tn, bytes(change['delete'] || change[NAME]))
            next
          end
          spec = change.reject { |k, _| k == METHOD }
          existing = admin.getDescriptor(tn).getColumnFamily(bytes(spec[NAME]))
          if existing
            admin.modifyColumnFamily(tn, family_descriptor(spec, existing))
          else
            admin.addColumnFamily(tn, family_descriptor(spec))
          end
        end
        puts 'Done.'
        nil
      end
    end

    def describe(name)
      command('describe') do
        tn = table_name(name)
        descriptor = admin.getDescriptor(tn)
        puts "Table #{name} is #{admin.isTableEnabled(tn) ? 'ENABLED' : 'DISABLED'}"
        attributes = descriptor.toStringTableAttributes.to_s
        puts attributes.empty? ? name : "#{name}, #{attributes}"
        puts 'COLUMN FAMILIES DESCRIPTION'
        descriptor.getColumnFamilies.each { |family| puts family.toString }
        puts
        Output.rows(descriptor.getColumnFamilyCount)
        nil
      end
    end
    alias desc describe

    def list(pattern = '.*')
      command('list') do
        names = admin.listTableNames(java.util.regex.Pattern.compile(pattern)).map(&:getNameAsString).sort
        puts 'TABLE'
        names.each { |n| puts n }
        Output.rows(names.size)
        names
      end
    end

    def exists(name)
      command('exists') do
        found = admin.tableExists(table_name(name))
        puts "Table #{name} #{found ? 'does exist' : 'does not exist'}"
        found
      end
    end

    def enable(name)
      command('enable') { admin.enableTable(table_name(name)); nil }
    end

    def disable(name)
      command('disable') { admin.disableTable(table_name(name)); nil }
    end

    def is_enabled(name)
      command('is_enabled') { state = admin.isTableEnabled(table_name(name)); puts state; state }
    end

    def is_disabled(name)
      command('is_disabled') { state = admin.isTableDisabled(table_name(name)); puts state; state }
    end

    def drop(name)
      command('drop') do
        tn = table_name(name)
        raise ArgumentError, "Table #{name} is enabled. Disable it first." if admin.isTableEnabled(tn)

        admin.deleteTable(tn)
        nil
      end
    end

    def truncate(name)
      command('truncate') do
        tn = table_name(name)
        puts "Truncating '#{name}' table (it may take a while):"
        if admin.isTableEnabled(tn)
          puts 'Disabling table...'
          admin.disableTable(tn)
        end
        puts 'Truncating table...'
        admin.truncateTable(tn, false)
        nil
      end
    end

    def create_namespace(name, properties = {})
      command('create_namespace') do
        b = org.apache.hadoop.hbase.NamespaceDescriptor.create(name.to_s)
        properties.each { |k, v| b.addConfiguration(k.to_s, v.to_s) }
        admin.createNamespace(b.build)
        nil
      end
    end

    def drop_namespace(name)
      command('drop_namespace') { admin.deleteNamespace(name.to_s); nil }
    end

    def describe_namespace(name)
      command('describe_namespace') do
        puts 'DESCRIPTION'
        puts admin.getNamespaceDescriptor(name.to_s).toString
        nil
      end
    end

    def list_namespace(pattern = '.*')
      command('list_namespace') do
        regex = Regexp.new("\\A(?:#{pattern})\\z")
        names = admin.listNamespaces.to_a.map(&:to_s).select { |n| regex.match?(n) }.sort
        puts 'NAMESPACE'
        names.each { |n| puts n }
        Output.rows(names.size)
        names
      end
    end

    def list_namespace_tables(name)
      command('list_namespace_tables') do
        names = admin.listTableNamesByNamespace(name.to_s).map(&:getQualifierAsString).sort
        puts 'TABLE'
        names.each { |n| puts n }
        Output.rows(names.size)
        names
      end
    end

    private

    def split_keys(options)
      # NUMREGIONS/SPLITALGO need HBase's RegionSplitter (hbase-server), which the client does not carry.
      options[SPLITS]&.map { |k| bytes(k) }&.to_java(Java::byte[])
    end
  end
end

# Cluster and session commands with HBase's syntax and output.
module Basalt
  module ClusterCommands
    def status(mode = 'summary')
      command('status') do
        metrics = admin.getClusterMetrics
        servers = metrics.getLiveServerMetrics.size
        dead = metrics.getDeadServerNames.size
        backups = metrics.getBackupMasterNames.size
        masters = metrics.getMasterName.nil? ? 0 : 1
        puts format('%d active master, %d backup masters, %d servers, %d dead, %.4f average load',
                    masters, backups, servers, dead, metrics.getAverageLoad)
        if mode.to_s == 'simple' || mode.to_s == 'detailed'
          metrics.getLiveServerMetrics.each do |name, server|
            puts "    #{name.getHostname}:#{name.getPort} #{server.getRegionMetrics.size} regions"
          end
        end
        nil
      end
    end

    # split 'table' | split 'encoded or full region name' [, 'split point']
    def split(table_or_region, split_point = nil)
      command('split') do
        point = split_point.nil? ? nil : bytes(split_point)
        if admin.tableExists(org.apache.hadoop.hbase.TableName.valueOf(table_or_region.to_s))
          tn = table_name(table_or_region)
          point ? admin.split(tn, point) : admin.split(tn)
        else
          name = bytes(table_or_region)
          future = point ? admin.splitRegionAsync(name, point) : admin.splitRegionAsync(name)
          future.get(60, java.util.concurrent.TimeUnit::SECONDS)
        end
        nil
      end
    end

    # merge_region 'ENCODED1', 'ENCODED2' [, true] | merge_region ['ENCODED1', 'ENCODED2'] [, true]: HBase 2.6's
    # syntax (full region names work too); a trailing true forces a merge of regions that are not adjacent.
    def merge_region(*args)
      command('merge_region') do
        regions = args.flatten.compact
        force = false
        if regions.length > 2 && [true, false].include?(regions.last)
          force = regions.pop
        end
        raise ArgumentError, 'Must pass at least 2 regions to merge' unless regions.length > 1

        names = regions.map { |r| bytes(r) }.to_java(Java::byte[])
        admin.mergeRegionsAsync(names, force).get(600, java.util.concurrent.TimeUnit::SECONDS)
        nil
      end
    end

    # move 'encoded region name' [, 'host,port,startcode']
    def move(encoded_region, server = nil)
      command('move') do
        region = bytes(encoded_region)
        if server
          admin.move(region, org.apache.hadoop.hbase.ServerName.valueOf(server.to_s))
        else
          admin.move(region)
        end
        nil
      end
    end

    def balancer(*_args)
      command('balancer') do
        ran = admin.balance
        puts ran
        ran
      end
    end

    def balance_switch(enable)
      command('balance_switch') do
        raise ArgumentError, 'balance_switch takes true or false' unless [true, false].include?(enable)

        previous = admin.balancerSwitch(enable, true)
        puts "Previous balancer state : #{previous}"
        previous
      end
    end

    # decommission_regionservers ['host,port,startcode' or 'host'...] [, offload = true]
    def decommission_regionservers(servers, offload = true)
      command('decommission_regionservers') do
        live = admin.getRegionServers.to_a
        names = Array(servers).flat_map do |s|
          wanted = s.to_s
          matched = live.select do |n|
            [n.getServerName, n.getHostname, n.getAddress.toString].include?(wanted)
          end
          raise ArgumentError, "No live region server matches #{s}" if matched.empty?

          matched
        end
        admin.decommissionRegionServers(java.util.ArrayList.new(names), offload)
        nil
      end
    end

    def list_decommissioned_regionservers
      command('list_decommissioned_regionservers') do
        names = admin.listDecommissionedRegionServers.to_a
        puts 'DECOMMISSIONED REGION SERVERS'
        names.each { |n| puts " #{n.getServerName}" }
        Output.rows(names.size)
        nil
      end
    end

    # recommission_regionserver 'host,port,startcode' [, ['encoded region name', ...]]
    def recommission_regionserver(server, regions = [])
      command('recommission_regionserver') do
        name = org.apache.hadoop.hbase.ServerName.valueOf(server.to_s)
        encoded = java.util.ArrayList.new(Array(regions).map { |r| bytes(r) })
        admin.recommissionRegionServer(name, encoded)
        nil
      end
    end

    def version
      command('version') do
        info = org.apache.hadoop.hbase.util.VersionInfo
        puts "#{info.getVersion}, r#{info.getRevision}, #{info.getDate}"
        cluster = admin.getClusterMetrics.getHBaseVersion
        puts "Cluster: #{cluster}"
        nil
      end
    end

    def whoami
      command('whoami') do
        user = org.apache.hadoop.hbase.security.User.getCurrent
        puts user.toString
        groups = begin
          user.getGroupNames.to_a
        rescue StandardError, java.lang.Throwable
          []
        end
        puts "    groups: #{groups.join(', ')}"
        nil
      end
    end

    def help(name = nil)
      if name.nil?
        puts "Basalt shell: HBase's shell language over the HBase client. Commands:"
        puts Session.command_names.join(', ')
        puts
        puts "Arguments use Ruby syntax, as HBase: create 't', {NAME => 'f', VERSIONS => 3}; " \
             "scan 't', {LIMIT => 10}"
      else
        text = COMMAND_HELP[name.to_s] || SnapshotCommands::HELP[name.to_s] or raise ArgumentError, "Unknown command: #{name}"
        puts text
      end
      nil
    end

    def exit(code = 0)
      raise ExitShell, Integer(code)
    end
    alias quit exit

    COMMAND_HELP = {
      'create' => "create 't1', 'f1', {NAME => 'f2', VERSIONS => 3}, SPLITS => ['m']",
      'alter' => "alter 't1', NAME => 'f1', VERSIONS => 5 | alter 't1', 'delete' => 'f1'",
      'describe' => "describe 't1'", 'desc' => "desc 't1'", 'list' => "list ['regex']",
      'exists' => "exists 't1'", 'enable' => "enable 't1'", 'disable' => "disable 't1'",
      'is_enabled' => "is_enabled 't1'", 'is_disabled' => "is_disabled 't1'", 'drop' => "drop 't1' (disabled)",
      'truncate' => "truncate 't1'", 'put' => "put 't1', 'r1', 'f1:c1', 'value' [, ts]",
      'get' => "get 't1', 'r1' [, {COLUMN => 'f1:c1', VERSIONS => 3, TIMERANGE => [ts1, ts2], FILTER => \"...\"}]",
      'scan' => "scan 't1' [, {COLUMNS => ['f1'], LIMIT => 10, STARTROW => 'a', STOPROW => 'z', " \
                "ROWPREFIXFILTER => 'r', FILTER => \"PrefixFilter('r')\", TIMERANGE => [a, b], VERSIONS => 3, " \
                'RAW => true, REVERSED => true}]',
      'delete' => "delete 't1', 'r1', 'f1:c1' [, ts]", 'deleteall' => "deleteall 't1', 'r1' [, 'f1:c1' [, ts]]",
      'incr' => "incr 't1', 'r1', 'f1:c1' [, 1]", 'get_counter' => "get_counter 't1', 'r1', 'f1:c1'",
      'count' => "count 't1' [, INTERVAL => 1000]", 'status' => "status ['summary'|'simple']",
      'split' => "split 'table' | split 'region' [, 'splitKey']", 'move' => "move 'encoded' [, 'host,port,code']",
      'merge_region' => "merge_region 'encoded1', 'encoded2' [, true] | merge_region ['encoded1', 'encoded2'] [, true]",
      'balancer' => 'balancer', 'balance_switch' => 'balance_switch true|false',
      'create_namespace' => "create_namespace 'ns'", 'drop_namespace' => "drop_namespace 'ns'",
      'describe_namespace' => "describe_namespace 'ns'", 'list_namespace' => "list_namespace ['regex']",
      'list_namespace_tables' => "list_namespace_tables 'ns'",
      'decommission_regionservers' => "decommission_regionservers ['host,port,code'] [, true]",
      'list_decommissioned_regionservers' => 'list_decommissioned_regionservers',
      'recommission_regionserver' => "recommission_regionserver 'host,port,code' [, ['encoded']]",
      'version' => 'version', 'whoami' => 'whoami', 'help' => "help ['command']", 'exit' => 'exit [code]'
    }.freeze
  end
end

# Snapshot commands with HBase's syntax and output (its shell/commands/snapshot.rb and friends).
module Basalt
  module SnapshotCommands
    # snapshot 'table', 'snapshot' [, {SKIP_FLUSH => true, TTL => seconds}]
    # SKIP_FLUSH changes nothing in Basalt (no memstore: a snapshot holds every acknowledged write either way).
    def snapshot(table, snapshot_name, args = {})
      command('snapshot') do
        raise ArgumentError, 'Arguments should be a Hash' unless args.is_a?(Hash)

        tn = table_name(table)
        if args.key?('TTL')
          props = java.util.HashMap.new
          props.put('TTL', java.lang.Long.new(Integer(args['TTL'])))
          admin.snapshot(snapshot_name.to_s, tn, props)
        elsif args['SKIP_FLUSH'] == true
          admin.snapshot(snapshot_name.to_s, tn, org.apache.hadoop.hbase.client.SnapshotType::SKIPFLUSH)
        else
          admin.snapshot(snapshot_name.to_s, tn)
        end
        nil
      end
    end

    def list_snapshots(regex = '.*')
      command('list_snapshots') do
        list = admin.listSnapshots(java.util.regex.Pattern.compile(regex.to_s)).to_a
        Output.header('SNAPSHOT', 'TABLE + CREATION TIME')
        list.each do |s|
          created = Time.at(s.getCreationTime / 1000).to_s
          Output.row(s.getName, "#{s.getTableNameAsString} (#{created})")
        end
        Output.rows(list.size)
        list.map(&:getName)
      end
    end

    def clone_snapshot(snapshot_name, table, _args = {})
      command('clone_snapshot') { admin.cloneSnapshot(snapshot_name.to_s, table_name(table)); nil }
    end

    def restore_snapshot(snapshot_name, _args = {})
      command('restore_snapshot') { admin.restoreSnapshot(snapshot_name.to_s); nil }
    end

    def delete_snapshot(snapshot_name)
      command('delete_snapshot') { admin.deleteSnapshot(snapshot_name.to_s); nil }
    end

    HELP = {
      'snapshot' => "snapshot 'sourceTable', 'snapshotName' [, {SKIP_FLUSH => true}]",
      'list_snapshots' => "list_snapshots ['regex']",
      'clone_snapshot' => "clone_snapshot 'snapshotName', 'tableName'",
      'restore_snapshot' => "restore_snapshot 'snapshotName' (the table disabled)",
      'delete_snapshot' => "delete_snapshot 'snapshotName'"
    }.freeze
  end
end

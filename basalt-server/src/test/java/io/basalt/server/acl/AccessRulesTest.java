package io.basalt.server.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.rpc.CallGuard.Admitted;
import io.basalt.server.rpc.Caller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.RequestConverter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * HBase's resolution rules over a fixed set of grants, without ZooKeeper: which scopes cover which, groups,
 * superusers, reads narrowed to readable columns, writes per family and qualifier, batches refused per action.
 */
class AccessRulesTest {
  private static final TableName T = TableName.valueOf("t");
  private static final TableName NS_T = TableName.valueOf("ns", "t2");
  private static final byte[] F1 = Bytes.toBytes("f1");
  private static final byte[] F2 = Bytes.toBytes("f2");
  private static final byte[] Q1 = Bytes.toBytes("q1");
  private static final byte[] Q2 = Bytes.toBytes("q2");
  private static final RegionInfo REGION = RegionInfoBuilder.newBuilder(T).build();

  private final Map<String, Map<String, List<Permission>>> entries = new LinkedHashMap<>();
  private final AccessSettings settings = new AccessSettings(true, Set.of("boss", System.getProperty("user.name")), Set.of("admins"),
      "carol=analysts;dave=admins;erin=;alice=;bob=;frank=;gina=;nobody=", "");
  private final UserGroups groups = new UserGroups(settings.groupOverrides());
  private final AccessChecker checker;

  AccessRulesTest() throws Exception {
    grant("hbase:acl", "gina", Permission.newBuilder().withActions(Action.READ).build());
    grant("@ns", "frank", Permission.newBuilder("ns").withActions(Action.ADMIN, Action.CREATE).build());
    grant("t", "alice", Permission.newBuilder(T).withActions(Action.READ).build());
    grant("t", "bob", Permission.newBuilder(T).withFamily(F1).withActions(Action.READ, Action.WRITE).build());
    grant("t", "erin", Permission.newBuilder(T).withFamily(F1).withQualifier(Q1).withActions(Action.READ).build());
    grant("t", "@analysts", Permission.newBuilder(T).withActions(Action.READ).build());
    checker = new AccessChecker(() -> new PermissionView(entries, settings), groups, new AuditLog(""));
  }

  private void grant(String entry, String user, Permission p) {
    entries.computeIfAbsent(entry, k -> new LinkedHashMap<>()).computeIfAbsent(user, k -> new ArrayList<>()).add(p);
  }

  private RequestUser user(String name) {
    return checker.user(new Caller(name, false, null));
  }

  @Test
  void scopesCoverNarrowerScopesAsInHBase() {
    PermissionView v = checker.view();
    assertThat(v.table(user("alice"), T, F1, Q1, Action.READ)).isTrue(); // table grant covers qualifiers
    assertThat(v.table(user("alice"), T, null, null, Action.WRITE)).isFalse();
    assertThat(v.table(user("bob"), T, F1, Q2, Action.WRITE)).isTrue(); // family grant covers its qualifiers
    assertThat(v.table(user("bob"), T, null, null, Action.READ)).isFalse(); // but not the table
    assertThat(v.table(user("erin"), T, F1, Q1, Action.READ)).isTrue();
    assertThat(v.table(user("erin"), T, F1, null, Action.READ)).isFalse(); // a qualifier grant is not the family
    assertThat(v.family(user("erin"), T, F1, Action.READ)).isTrue(); // ... but makes a filtered read possible
    assertThat(v.table(user("frank"), NS_T, F1, null, Action.CREATE)).isTrue(); // namespace covers its tables
    assertThat(v.table(user("frank"), T, null, null, Action.CREATE)).isFalse();
    assertThat(v.namespace(user("gina"), "anything", Action.READ)).isTrue(); // global covers everything
    assertThat(v.table(user("carol"), T, F2, null, Action.READ)).isTrue(); // @group grant
    assertThat(v.global(user("boss"), Action.ADMIN)).isTrue(); // hbase.superuser
    assertThat(v.global(user("dave"), Action.ADMIN)).isTrue(); // member of a @supergroup
    assertThat(v.global(user(System.getProperty("user.name")), Action.ADMIN)).isTrue(); // the server's user
    assertThat(v.global(checker.user(new Caller("", true, null)), Action.ADMIN)).isTrue(); // a cluster member
    assertThat(v.table(user("nobody"), T, null, null, Action.READ)).isFalse();
    assertThat(v.table(user("alice@EXAMPLE.COM"), T, null, null, Action.READ)).isTrue(); // short name
  }

  private static ClientProtos.GetRequest get(Get g) throws Exception {
    return RequestConverter.buildGetRequest(REGION.getRegionName(), g);
  }

  private ClientProtos.Get admittedGet(String user, Get g) throws Exception {
    RegionCallRules rules = new RegionCallRules(checker, regionName -> List.of(F1, F2));
    Admitted a = rules.client(user(user), "Get", get(g), List.of());
    return ((ClientProtos.GetRequest) a.request()).getGet();
  }

  @Test
  void readsNeedTheTableOrEveryFamilyAskedFor() throws Exception {
    Get whole = new Get(Bytes.toBytes("r"));
    assertThat(admittedGet("alice", whole).getColumnCount()).isZero(); // as asked
    assertThatThrownBy(() -> admittedGet("nobody", whole)).isInstanceOf(AccessDeniedException.class)
        .hasMessage("Insufficient permissions for user 'nobody' (table=t, action=READ)");
    // a whole row is checked as all the table's families (HBase fills them in first): bob reads f1 of it
    assertThat(admittedGet("bob", whole).getColumnList()).extracting(c -> c.getFamily().toStringUtf8())
        .containsExactly("f1");
    // ... but not for an existence check, which HBase's AccessController sees before the families are filled in
    assertThatThrownBy(() -> admittedGet("bob", new Get(Bytes.toBytes("r")).setCheckExistenceOnly(true)))
        .isInstanceOf(AccessDeniedException.class);
    assertThat(admittedGet("bob", new Get(Bytes.toBytes("r")).addFamily(F1)).getColumn(0).getQualifierCount()).isZero();
    assertThatThrownBy(() -> admittedGet("nobody", new Get(Bytes.toBytes("r")).addFamily(F1)))
        .isInstanceOf(AccessDeniedException.class);
  }

  @Test
  void partialReadsAreNarrowedToWhatTheUserMayRead() throws Exception {
    // bob may read f1 only: a read of f1 and f2 returns f1 (HBase's AccessControlFilter), not an error
    ClientProtos.Get g = admittedGet("bob", new Get(Bytes.toBytes("r")).addFamily(F1).addFamily(F2));
    assertThat(g.getColumnList()).extracting(c -> c.getFamily().toStringUtf8()).containsExactly("f1");
    // erin may read f1:q1 only: a read of family f1 becomes a read of f1:q1
    g = admittedGet("erin", new Get(Bytes.toBytes("r")).addFamily(F1));
    assertThat(g.getColumn(0).getQualifierList()).extracting(ByteString::toStringUtf8).containsExactly("q1");
    g = admittedGet("erin", new Get(Bytes.toBytes("r")).addColumn(F1, Q1).addColumn(F1, Q2));
    assertThat(g.getColumn(0).getQualifierList()).extracting(ByteString::toStringUtf8).containsExactly("q1");
    assertThatThrownBy(() -> admittedGet("erin", new Get(Bytes.toBytes("r")).addColumn(F1, Q2)))
        .isInstanceOf(AccessDeniedException.class);
    assertThatThrownBy(() -> admittedGet("erin", new Get(Bytes.toBytes("r")).addFamily(F2)))
        .isInstanceOf(AccessDeniedException.class);
  }

  private static ClientProtos.MutateRequest put(byte[] family, byte[] qualifier) throws Exception {
    Put p = new Put(Bytes.toBytes("r")).addColumn(family, qualifier, Bytes.toBytes("v"));
    return RequestConverter.buildMutateRequest(REGION.getRegionName(), p);
  }

  @Test
  void basaltImportsLoadCallNeedsWriteOnTheWholeTable() throws Exception {
    RegionCallRules rules = new RegionCallRules(checker, regionName -> List.of(F1, F2));
    ClientProtos.CoprocessorServiceRequest load = ClientProtos.CoprocessorServiceRequest.newBuilder()
        .setRegion(org.apache.hadoop.hbase.shaded.protobuf.RequestConverter.buildRegionSpecifier(
            org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME,
            REGION.getRegionName()))
        .setCall(ClientProtos.CoprocessorServiceCall.newBuilder().setRow(
            org.apache.hbase.thirdparty.com.google.protobuf.ByteString.EMPTY)
            .setServiceName(io.basalt.server.bulk.BulkLoadCall.SERVICE).setMethodName(io.basalt.server.bulk.BulkLoadCall.METHOD)
            .setRequest(org.apache.hbase.thirdparty.com.google.protobuf.ByteString.EMPTY))
        .build();
    // bob may write family f1 only: a load may carry any family, so it is refused; the superuser passes
    assertThatThrownBy(() -> rules.client(user("bob"), "ExecService", load, List.of()))
        .isInstanceOf(AccessDeniedException.class).hasMessageContaining("action=WRITE");
    assertThatThrownBy(() -> rules.client(user("alice"), "ExecService", load, List.of()))
        .isInstanceOf(AccessDeniedException.class);
    rules.client(user("boss"), "ExecService", load, List.of());
  }

  @Test
  void writesNeedWriteOnEveryFamilyTheyTouch() throws Exception {
    RegionCallRules rules = new RegionCallRules(checker, regionName -> List.of(F1, F2));
    rules.client(user("bob"), "Mutate", put(F1, Q1), List.of());
    assertThatThrownBy(() -> rules.client(user("bob"), "Mutate", put(F2, Q1), List.of()))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessage("Insufficient permissions (user=bob, scope=default:t, family=f2:q1, "
            + "params=[table=default:t,family=f2:q1],action=WRITE)");
    assertThatThrownBy(() -> rules.client(user("alice"), "Mutate", put(F1, Q1), List.of()))
        .isInstanceOf(AccessDeniedException.class);
    // cells in the cell block count as much as inline ones
    ClientProtos.MutationProto noData = ProtobufUtil.toMutationNoData(ClientProtos.MutationProto.MutationType.PUT,
        new Put(Bytes.toBytes("r")).addColumn(F2, Q1, Bytes.toBytes("v")));
    ClientProtos.MutateRequest blockPut = ClientProtos.MutateRequest.newBuilder()
        .setRegion(RegionSpecifier.newBuilder().setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFrom(REGION.getRegionName())))
        .setMutation(noData).build();
    List<Cell> cells = List.of(new KeyValue(Bytes.toBytes("r"), F2, Q1, Bytes.toBytes("v")));
    assertThatThrownBy(() -> rules.client(user("bob"), "Mutate", blockPut, cells))
        .isInstanceOf(AccessDeniedException.class);
  }

  private static ClientProtos.Action mutation(int index, ClientProtos.MutationProto.MutationType type,
      org.apache.hadoop.hbase.client.Mutation m) throws Exception {
    return ClientProtos.Action.newBuilder().setIndex(index).setMutation(ProtobufUtil.toMutationNoData(type, m)).build();
  }

  @Test
  void aBatchRefusesTheRefusedActionsAndTheirBatchOnlyAsHBase() throws Exception {
    RegionCallRules rules = new RegionCallRules(checker, regionName -> List.of(F1, F2));
    byte[] row = Bytes.toBytes("a");
    ClientProtos.RegionAction.Builder group = ClientProtos.RegionAction.newBuilder()
        .setRegion(RegionSpecifier.newBuilder().setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFrom(REGION.getRegionName())));
    // 0, 1: Puts of one batch (HBase applies consecutive Puts and Deletes together; a Get does not end a batch)
    group.addAction(mutation(0, ClientProtos.MutationProto.MutationType.PUT, new Put(row).addColumn(F1, Q1, row)));
    group.addAction(mutation(1, ClientProtos.MutationProto.MutationType.PUT, new Put(row).addColumn(F2, Q1, row)));
    group.addAction(ClientProtos.Action.newBuilder().setIndex(2).setGet(ProtobufUtil.toGet(new Get(row).addFamily(F1))));
    // 3: an Increment stands alone and ends the batch; 4: a Put of a new batch
    group.addAction(mutation(3, ClientProtos.MutationProto.MutationType.INCREMENT,
        new org.apache.hadoop.hbase.client.Increment(row).addColumn(F1, Q2, 1)));
    group.addAction(mutation(4, ClientProtos.MutationProto.MutationType.PUT, new Put(row).addColumn(F1, Q2, row)));
    List<Cell> cells = List.of(new KeyValue(row, F1, Q1, row), new KeyValue(row, F2, Q1, row),
        new KeyValue(row, F1, Q2, Bytes.toBytes(1L)), new KeyValue(row, F1, Q2, row));
    ClientProtos.MultiRequest multi = ClientProtos.MultiRequest.newBuilder().addRegionAction(group).build();
    Admitted a = rules.client(user("bob"), "Multi", multi, cells);
    ClientProtos.MultiRequest run = (ClientProtos.MultiRequest) a.request();
    assertThat(run.getRegionAction(0).getActionList()).extracting(ClientProtos.Action::getIndex).containsExactly(2, 3, 4);
    assertThat(a.cells(cells)).containsExactly(cells.get(2), cells.get(3));
    ClientProtos.RegionActionResult.Builder ran = ClientProtos.RegionActionResult.newBuilder();
    for (int i : new int[] {2, 3, 4}) {
      ran.addResultOrException(ClientProtos.ResultOrException.newBuilder().setIndex(i)
          .setResult(ClientProtos.Result.getDefaultInstance()));
    }
    ClientProtos.MultiResponse answered = (ClientProtos.MultiResponse) a.complete(
        ClientProtos.MultiResponse.newBuilder().addRegionActionResult(ran).build());
    List<ClientProtos.ResultOrException> roes = answered.getRegionActionResult(0).getResultOrExceptionList();
    assertThat(roes).hasSize(5);
    assertThat(roes.stream().filter(ClientProtos.ResultOrException::hasException))
        .extracting(ClientProtos.ResultOrException::getIndex).containsExactlyInAnyOrder(0, 1);
    assertThat(roes.stream().filter(ClientProtos.ResultOrException::hasException)
        .map(roe -> roe.getException().getName())).containsOnly(AccessDeniedException.class.getName());
  }

  @Test
  void permissionQuestionsAnswerAsHBase() throws Exception {
    Grants grants = new Grants(checker, null, null, settings);
    Permission readT = Permission.newBuilder(T).withActions(Action.READ).build();
    Permission readF1 = Permission.newBuilder(T).withFamily(F1).withActions(Action.READ).build();
    assertThat(grants.has(user("bob"), null, List.of(readT, readF1))).containsExactly(false, true);
    assertThat(grants.has(user("frank"), "frank", List.of(Permission.newBuilder("ns")
        .withActions(Action.CREATE).build()))).containsExactly(true);
    // asking about someone else needs ADMIN at that scope
    assertThatThrownBy(() -> grants.has(user("bob"), "alice", List.of(readT))).isInstanceOf(AccessDeniedException.class);
    assertThat(grants.has(user("boss"), "alice", List.of(readT))).containsExactly(true);
    assertThat(grants.list(user("boss"), null, null, T, null, null)).extracting(up -> up.getUser())
        .containsExactlyInAnyOrder("alice", "bob", "erin", "@analysts");
    assertThat(grants.list(user("boss"), "carol", null, T, null, null)).extracting(up -> up.getUser())
        .containsExactly("@analysts"); // a user's view includes its groups' grants
    assertThat(grants.list(user("boss"), null, null, T, F1, null)).extracting(up -> up.getUser())
        .containsExactlyInAnyOrder("bob", "erin");
    assertThatThrownBy(() -> grants.list(user("alice"), null, null, T, null, null))
        .isInstanceOf(AccessDeniedException.class);
  }

  @Test
  void masterCallsNeedHBasesPermissions() throws Exception {
    MasterCallRules rules = new MasterCallRules(checker, null, () -> {});
    var create = RequestConverter.buildCreateTableRequest(
        org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(NS_T)
            .setColumnFamily(org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of(F1)).build(), null, 0, 0);
    rules.admit(user("frank"), "CreateTable", create); // CREATE on the namespace
    assertThatThrownBy(() -> rules.admit(user("alice"), "CreateTable", create))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessage("Insufficient permissions (user=alice, scope=ns, params=[namespace=ns,table=ns:t2,family=f1],"
            + "action=CREATE)");
    var delete = RequestConverter.buildDeleteTableRequest(T, 0, 0);
    assertThatThrownBy(() -> rules.admit(user("alice"), "DeleteTable", delete)).isInstanceOf(AccessDeniedException.class);
    var ns = org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateNamespaceRequest.newBuilder()
        .setNamespaceDescriptor(ProtobufUtil.toProtoNamespaceDescriptor(
            org.apache.hadoop.hbase.NamespaceDescriptor.create("x").build())).build();
    assertThatThrownBy(() -> rules.admit(user("frank"), "CreateNamespace", ns))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessage("Insufficient permissions for user 'frank' (global, action=ADMIN)");
    rules.admit(user("boss"), "CreateNamespace", ns);
    // as HBase 2.6: a refused balance run is answered "did not run", not with an error (and not run)
    var balance = rules.admit(user("gina"), "Balance",
        org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.BalanceRequest.getDefaultInstance());
    assertThat(((org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.BalanceResponse) balance.answer())
        .getBalancerRan()).isFalse();
    assertThat(rules.admit(user("boss"), "Balance",
        org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.BalanceRequest.getDefaultInstance()).answer())
        .isNull();
    assertThatThrownBy(() -> rules.admit(user("gina"), "SetBalancerRunning",
        org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetBalancerRunningRequest.newBuilder()
            .setOn(true).build())).isInstanceOf(AccessDeniedException.class);
  }

  /** What a check costs on its own (the in-process part of authorisation's cost), printed for the docs. */
  @Test
  void aCheckCostsMicrosecondsAtMost() throws Exception {
    RegionCallRules rules = new RegionCallRules(checker, regionName -> List.of(F1, F2));
    ClientProtos.GetRequest get = get(new Get(Bytes.toBytes("r")).addFamily(F1));
    ClientProtos.MutateRequest put = put(F1, Q1);
    RequestUser alice = user("alice");
    RequestUser bob = user("bob");
    double[] ns = new double[2];
    for (int round = 0; round < 3; round++) { // the last round counts, after warm-up
      int n = 200_000;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        rules.client(alice, "Get", get, List.of());
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        rules.client(bob, "Mutate", put, List.of());
      }
      long t2 = System.nanoTime();
      ns[0] = (t1 - t0) / (double) n;
      ns[1] = (t2 - t1) / (double) n;
    }
    System.out.printf("[acl-cost] one check in process: Get (table grant) %.0f ns, Put (family grant) %.0f ns%n",
        ns[0], ns[1]);
    assertThat(ns[0]).isLessThan(100_000);
    assertThat(ns[1]).isLessThan(100_000);
  }
}

package io.basalt.server.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class ControlCodecTest {
  @Test
  void membersAndPortSetsRoundTrip() throws IOException {
    List<Member> members = List.of(new Member(ServerName.valueOf("h1", 16020, 7), 16500),
        new Member(ServerName.valueOf("h2", 16021, 8), 16501));
    ControlCodec.Reader r = new ControlCodec.Reader(new ControlCodec.Writer().members(members)
        .numbers(Set.of(16500, 16502)).toBytes());
    assertThat(r.members()).isEqualTo(members);
    assertThat(r.numbers()).containsExactlyInAnyOrder(16500, 16502);
  }

  @Test
  void aListLongerThanItsPayloadIsRefused() {
    byte[] lying = new ControlCodec.Writer().number(1_000_000).toBytes();
    assertThatThrownBy(() -> new ControlCodec.Reader(lying).members()).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> new ControlCodec.Reader(lying).numbers()).isInstanceOf(IOException.class);
  }

  @Test
  void aMemberWithABadPortIsRefused() {
    byte[] bad = new ControlCodec.Writer().number(1).server(ServerName.valueOf("h1", 1, 1)).number(0).toBytes();
    assertThatThrownBy(() -> new ControlCodec.Reader(bad).members()).isInstanceOf(IOException.class);
  }
}

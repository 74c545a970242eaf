package io.basalt.gateway.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * happybase (from PyPI, in the venv the build made) runs src/test/python/happybase_check.py, everything its
 * documentation shows with every answer checked, against Basalt standalone through the gateway, once per
 * transport and protocol pairing.
 */
@Timeout(180)
class HappybaseTest {
  private static final long PROGRAM_TIMEOUT_SECONDS = 90;
  private static GatewayFixture fixture;

  @BeforeAll
  static void start() throws Exception {
    fixture = new GatewayFixture();
  }

  @AfterAll
  static void stop() throws Exception {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest(name = "{0} transport, {1} protocol")
  @CsvSource({"buffered, binary", "framed, compact"})
  void happybaseProgramPasses(String transport, String protocol) throws Exception {
    String python = System.getProperty("basalt.gateway.python");
    String program = System.getProperty("basalt.gateway.happybaseCheck");
    assertThat(python).as("venv python (made by the build)").isNotNull();
    assertThat(Path.of(python)).exists();
    try (ThriftGateway gateway = fixture.gateway(transport.equals("framed"), protocol.equals("compact"))) {
      Path out = Files.createTempFile("happybase-", ".out");
      Process p = new ProcessBuilder(List.of(python, program, "127.0.0.1", Integer.toString(gateway.port()), transport,
          protocol)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      boolean exited = p.waitFor(PROGRAM_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (!exited) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String output = Files.readString(out, StandardCharsets.UTF_8);
      Files.deleteIfExists(out);
      System.out.println("[happybase " + transport + "/" + protocol + "] " + output.strip());
      assertThat(exited).as("happybase program finished within %d s; output:%n%s", PROGRAM_TIMEOUT_SECONDS, output)
          .isTrue();
      assertThat(p.exitValue()).as("happybase program output:%n%s", output).isZero();
      assertThat(output).contains("OK ");
    }
  }
}

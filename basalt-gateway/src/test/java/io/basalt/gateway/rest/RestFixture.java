package io.basalt.gateway.rest;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/** Basalt standalone in this JVM (free ports, temp data), a REST gateway in front, and an HTTP client for it. */
final class RestFixture implements AutoCloseable {
  private final Path dir;
  private final StandaloneServer cluster;
  final RestGateway gateway;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  RestFixture() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("rest-gateway-");
    cluster = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", cluster.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", cluster.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 5);
    conf.set(RestGatewayOptions.BIND, "127.0.0.1");
    conf.setInt(RestGatewayOptions.PORT, 0);
    conf.setInt(RestGatewayOptions.INFO_PORT, 0);
    conf.setInt(RestGatewayOptions.MAX_THREADS, 8);
    conf.setInt(RestGatewayOptions.SCAN_FETCH_SIZE, 2);
    gateway = RestGateway.start(conf);
  }

  String url(String path) {
    return "http://127.0.0.1:" + gateway.port() + path;
  }

  HttpResponse<byte[]> send(String method, String path, String accept, String contentType, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : url(path)))
        .timeout(Duration.ofSeconds(60))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (accept != null) {
      b.header("Accept", accept);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** A request with extra headers, given as name, value pairs. */
  HttpResponse<byte[]> sendWithHeaders(String method, String path, String contentType, byte[] body,
      String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(60))
        .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", contentType);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  HttpResponse<byte[]> get(String path, String accept) throws IOException, InterruptedException {
    return send("GET", path, accept, null, null);
  }

  HttpResponse<byte[]> send(String method, String path, String contentType, String body)
      throws IOException, InterruptedException {
    return send(method, path, null, contentType, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws IOException {
    try {
      gateway.close();
    } finally {
      try {
        cluster.close();
      } finally {
        try (Stream<Path> files = Files.walk(dir)) {
          files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }
}

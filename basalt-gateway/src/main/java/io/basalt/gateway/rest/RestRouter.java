package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a request's path onto the resource HBase's REST server has there, and every failure onto the status it
 * answers: 404 for an unknown table, namespace, row or scanner, 400 for bad input and permanent refusals
 * (DoNotRetryIOException), 503 when the cluster could not answer, 500 only for a fault of the gateway itself.
 */
final class RestRouter {
  private static final Logger LOG = LoggerFactory.getLogger(RestRouter.class);

  private final RowResource rows;
  private final ScannerResource scanners;
  private final SchemaResource schemas;
  private final NamespaceResource namespaces;
  private final ClusterResource cluster;
  private final boolean readOnly;

  RestRouter(Connection connection, RestScanners open, boolean readOnly) {
    this.rows = new RowResource(connection);
    this.scanners = new ScannerResource(connection, open);
    this.schemas = new SchemaResource(connection);
    this.namespaces = new NamespaceResource(connection);
    this.cluster = new ClusterResource(connection);
    this.readOnly = readOnly;
  }

  /** The resource kind a path names, for metrics (never the table or row, which would be unbounded). */
  static String resourceOf(List<String> segments) {
    if (segments.isEmpty()) {
      return "tables";
    }
    return switch (segments.get(0)) {
      case "version", "status", "namespaces" -> segments.get(0);
      default -> {
        if (segments.size() == 1) {
          yield "table";
        }
        String second = segments.get(1);
        yield switch (second) {
          case "schema", "regions", "exists", "multiget", "scanner" -> second;
          default -> segments.size() == 2 && second.endsWith("*") ? "scan" : "row";
        };
      }
    };
  }

  RestReply handle(RestRequest req, String baseUrl) {
    try {
      if (readOnly && !req.method().equals("GET")) {
        throw new RestException(403, "this gateway is read-only (" + RestGatewayOptions.READ_ONLY + ")");
      }
      return route(req, baseUrl);
    } catch (RestException e) {
      return RestReply.error(e.status, e.getMessage());
    } catch (IOException e) {
      int status = statusOf(e);
      if (status == 503) {
        LOG.warn("{} {}: cluster unavailable: {}", req.method(), req.segments(), e.toString());
      }
      return RestReply.error(status, e.getMessage());
    } catch (IllegalArgumentException e) {
      return RestReply.error(400, e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("{} {} failed", req.method(), req.segments(), e);
      return RestReply.error(500, e.toString());
    }
  }

  private RestReply route(RestRequest req, String baseUrl) throws IOException {
    List<String> path = req.segments();
    String method = req.method();
    if (path.isEmpty()) {
      return only("GET", method, () -> schemas.list(req));
    }
    switch (path.get(0)) {
      case "version" -> {
        if (path.size() == 1) {
          return only("GET", method, () -> ClusterResource.version(req));
        }
        if (path.size() == 2 && path.get(1).equals("cluster")) {
          return only("GET", method, () -> cluster.clusterVersion(req));
        }
        throw RestException.notFound("no such resource");
      }
      case "status" -> {
        if (path.size() == 2 && path.get(1).equals("cluster")) {
          return only("GET", method, () -> cluster.status(req));
        }
        throw RestException.notFound("no such resource");
      }
      case "namespaces" -> {
        return namespace(req, path);
      }
      default -> {
        return table(req, TableName.valueOf(path.get(0)), path.subList(1, path.size()), baseUrl);
      }
    }
  }

  private RestReply namespace(RestRequest req, List<String> path) throws IOException {
    String method = req.method();
    if (path.size() == 1) {
      return only("GET", method, () -> namespaces.list(req));
    }
    String namespace = path.get(1);
    if (path.size() == 3 && path.get(2).equals("tables")) {
      return only("GET", method, () -> namespaces.tables(req, namespace));
    }
    if (path.size() != 2) {
      throw RestException.notFound("no such resource");
    }
    return switch (method) {
      case "GET" -> namespaces.get(req, namespace);
      case "POST" -> namespaces.update(req, namespace, true);
      case "PUT" -> namespaces.update(req, namespace, false);
      case "DELETE" -> namespaces.delete(namespace);
      default -> throw notAllowed(method);
    };
  }

  private RestReply table(RestRequest req, TableName table, List<String> rest, String baseUrl) throws IOException {
    String method = req.method();
    if (rest.isEmpty()) {
      throw RestException.notFound("nothing at /" + table + ": see /" + table + "/schema, /regions or /ROW");
    }
    switch (rest.get(0)) {
      case "schema" -> {
        return switch (method) {
          case "GET" -> schemas.get(req, table);
          case "PUT" -> schemas.update(req, table, true);
          case "POST" -> schemas.update(req, table, false);
          case "DELETE" -> schemas.delete(table);
          default -> throw notAllowed(method);
        };
      }
      case "regions" -> {
        return only("GET", method, () -> schemas.regions(req, table));
      }
      case "exists" -> {
        return only("GET", method, () -> schemas.exists(table));
      }
      case "multiget" -> {
        return only("GET", method, () -> rows.multiGet(req, table));
      }
      case "scanner" -> {
        if (rest.size() == 1) {
          if (!method.equals("POST") && !method.equals("PUT")) {
            throw notAllowed(method);
          }
          return scanners.create(req, table, baseUrl);
        }
        if (rest.size() != 2) {
          throw RestException.notFound("no such resource");
        }
        return switch (method) {
          case "GET" -> scanners.next(req, table, rest.get(1));
          case "DELETE" -> scanners.delete(table, rest.get(1));
          default -> throw notAllowed(method);
        };
      }
      default -> {
        return switch (method) {
          case "GET" -> rows.get(req, table, rest);
          case "PUT", "POST" -> rows.put(req, table, rest);
          case "DELETE" -> rows.delete(table, rest);
          default -> throw notAllowed(method);
        };
      }
    }
  }

  private interface Call {
    RestReply run() throws IOException;
  }

  private static RestReply only(String allowed, String method, Call call) throws IOException {
    if (!allowed.equals(method)) {
      throw notAllowed(method);
    }
    return call.run();
  }

  private static RestException notAllowed(String method) {
    return new RestException(405, method + " is not allowed here");
  }

  /** 404 for what does not exist, 400 for permanent refusals, 503 for the rest (HBase's processException). */
  static int statusOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TableNotFoundException || t instanceof NamespaceNotFoundException) {
        return 404;
      }
      if (t instanceof RetriesExhaustedWithDetailsException details && !details.getCauses().isEmpty()) {
        return statusOf(details.getCause(0));
      }
      if (t instanceof AccessDeniedException) {
        return 403; // HBase's REST server answers the cluster's refusal so
      }
      if (t instanceof DoNotRetryIOException) {
        return 400;
      }
    }
    return 503;
  }
}

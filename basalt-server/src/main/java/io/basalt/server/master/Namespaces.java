package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/** Namespace DDL, serialized with the master's table DDL (a namespace is removed only while it has no tables). */
public final class Namespaces {
  private final Catalog catalog;
  private final Object ddlLock;

  Namespaces(Catalog catalog, Object ddlLock) {
    this.catalog = catalog;
    this.ddlLock = ddlLock;
  }

  public void create(NamespaceDescriptor ns) throws IOException {
    synchronized (ddlLock) {
      if (catalog.namespace(ns.getName()).isPresent()) {
        throw new NamespaceExistException(ns.getName());
      }
      TableName.isLegalNamespaceName(Bytes.toBytes(ns.getName()));
      catalog.putNamespace(ns);
    }
  }

  public void modify(NamespaceDescriptor ns) throws IOException {
    synchronized (ddlLock) {
      get(ns.getName());
      catalog.putNamespace(ns);
    }
  }

  public NamespaceDescriptor get(String name) throws NamespaceNotFoundException {
    return catalog.namespace(name).orElseThrow(() -> new NamespaceNotFoundException(name));
  }

  public void delete(String name) throws IOException {
    synchronized (ddlLock) {
      get(name);
      if (name.equals(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR)
          || name.equals(NamespaceDescriptor.SYSTEM_NAMESPACE_NAME_STR)) {
        throw new DoNotRetryIOException("Reserved namespace " + name + " cannot be removed.");
      }
      for (TableDescriptor t : catalog.tables()) {
        if (t.getTableName().getNamespaceAsString().equals(name)) {
          throw new DoNotRetryIOException("Only empty namespaces can be removed. Namespace " + name + " has tables");
        }
      }
      catalog.removeNamespace(name);
    }
  }
}

package io.basalt.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Reads a site file in HBase's (Hadoop's) format, so an {@code hbase-site.xml} can be used as it is:
 * <pre>
 * &lt;configuration&gt;
 *   &lt;property&gt;&lt;name&gt;hbase.zookeeper.quorum&lt;/name&gt;&lt;value&gt;zk1,zk2&lt;/value&gt;&lt;/property&gt;
 * &lt;/configuration&gt;
 * </pre>
 * {@code description}, {@code final} and {@code source} elements are ignored; a later property overrides
 * an earlier one. Values are raw strings; {@link BasaltConfig} types and checks them.
 */
public final class SiteFile {
  private SiteFile() {}

  public static Map<String, String> read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, file.toString());
    } catch (NoSuchFileException e) {
      throw new InvalidConfigException("configuration file " + file + " does not exist");
    } catch (IOException e) {
      throw new InvalidConfigException("cannot read configuration file " + file + ": " + e.getMessage(), e);
    }
  }

  static Map<String, String> parse(InputStream in, String source) {
    Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      // Plain data files: no DTDs, no external entities.
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(null);
      doc = b.parse(in);
    } catch (SAXException e) {
      throw new InvalidConfigException(source + " is not well-formed XML: " + e.getMessage(), e);
    } catch (IOException | ParserConfigurationException e) {
      throw new InvalidConfigException("cannot read " + source + ": " + e.getMessage(), e);
    }
    Element root = doc.getDocumentElement();
    if (!root.getTagName().equals("configuration")) {
      throw new InvalidConfigException(source + ": the root element must be <configuration>, not <" + root.getTagName() + ">");
    }
    Map<String, String> out = new LinkedHashMap<>();
    NodeList props = root.getChildNodes();
    for (int i = 0; i < props.getLength(); i++) {
      Node n = props.item(i);
      if (!(n instanceof Element p) || !p.getTagName().equals("property")) {
        continue;
      }
      String name = child(p, "name");
      if (name == null || name.isBlank()) {
        throw new InvalidConfigException(source + ": a <property> has no <name>");
      }
      String value = child(p, "value");
      out.put(name.trim(), value == null ? "" : value);
    }
    return out;
  }

  private static String child(Element parent, String tag) {
    NodeList l = parent.getElementsByTagName(tag);
    return l.getLength() == 0 ? null : l.item(0).getTextContent();
  }
}

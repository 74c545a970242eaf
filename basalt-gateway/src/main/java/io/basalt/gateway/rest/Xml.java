package io.basalt.gateway.rest;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Reading request XML safely (no DTDs, no external entities) and escaping what we write. */
final class Xml {
  private Xml() {}

  static Element parse(byte[] body, String expectedRoot) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      // Parse errors come back as the 400's message, not as "[Fatal Error]" lines on stderr.
      builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
        @Override
        public void fatalError(org.xml.sax.SAXParseException e) throws org.xml.sax.SAXException {
          throw e;
        }
      });
      Element root = builder.parse(new ByteArrayInputStream(body)).getDocumentElement();
      if (!root.getTagName().equals(expectedRoot)) {
        throw RestException.badRequest("expected an XML <" + expectedRoot + "> element, got <" + root.getTagName()
            + ">");
      }
      return root;
    } catch (RestException e) {
      throw e;
    } catch (Exception e) {
      throw RestException.badRequest("malformed XML: " + e.getMessage());
    }
  }

  static List<Element> children(Element parent, String tag) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        found.add(e);
      }
    }
    return found;
  }

  /** An attribute's value, or null when absent. */
  static String attr(Element e, String name) {
    return e.hasAttribute(name) ? e.getAttribute(name) : null;
  }

  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";
}

package forge;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;

import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;

import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;
import org.xml.sax.ext.DefaultHandler2;

/**
 * Opens a game XML for the engine only when its DOCTYPE is TripleA's own.
 *
 * <p>The engine's parser loads whatever DTD a DOCTYPE names and expands the entities of an
 * internal subset, so a hostile file could make it fetch a URL or read a local file. Before the
 * engine sees a file, its prolog is read here with a parser that loads nothing (no external DTD,
 * no external entity): a DOCTYPE must be {@code <!DOCTYPE game SYSTEM "game.dtd">} with no
 * declarations of its own, or the file is refused. triplea-forge also replaces a foreign DOCTYPE
 * before it starts the JVM; this is the second fence, for any other caller of the harness.
 */
final class SafeInput {
  private SafeInput() {}

  /** Thrown by the handler at the root element: the prolog is all that matters. */
  private static final class PrologRead extends SAXException {
    private static final long serialVersionUID = 1L;
  }

  private static final class Prolog extends DefaultHandler2 {
    boolean doctype;
    String publicId;
    String systemId;
    boolean declarations;

    @Override
    public void startDTD(final String name, final String publicId, final String systemId) {
      doctype = true;
      this.publicId = publicId;
      this.systemId = systemId;
    }

    @Override
    public void elementDecl(final String name, final String model) {
      declarations = true;
    }

    @Override
    public void attributeDecl(
        final String element, final String name, final String type, final String mode, final String value) {
      declarations = true;
    }

    @Override
    public void internalEntityDecl(final String name, final String value) {
      declarations = true;
    }

    @Override
    public void externalEntityDecl(final String name, final String publicId, final String systemId) {
      declarations = true;
    }

    @Override
    public void unparsedEntityDecl(final String name, final String publicId, final String systemId, final String n) {
      declarations = true;
    }

    @Override
    public void notationDecl(final String name, final String publicId, final String systemId) {
      declarations = true;
    }

    @Override
    public InputSource resolveEntity(
        final String name, final String publicId, final String baseUri, final String systemId) {
      return new InputSource(new StringReader("")); // nothing is ever loaded while checking
    }

    @Override
    public void startElement(final String uri, final String local, final String qName, final Attributes a)
        throws SAXException {
      throw new PrologRead();
    }
  }

  static InputStream open(final String path) throws IOException {
    final Prolog prolog = new Prolog();
    try (InputStream in = new FileInputStream(path)) {
      final SAXParserFactory factory = SAXParserFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      final SAXParser parser = factory.newSAXParser();
      final XMLReader reader = parser.getXMLReader();
      reader.setProperty("http://xml.org/sax/properties/lexical-handler", prolog);
      reader.setProperty("http://xml.org/sax/properties/declaration-handler", prolog);
      reader.setContentHandler(prolog);
      reader.setEntityResolver(prolog);
      reader.parse(new InputSource(in));
    } catch (final PrologRead done) {
      // the root element was reached
    } catch (final SAXException | javax.xml.parsers.ParserConfigurationException e) {
      // not well-formed: the engine's own parser says where, as it would without us
    }
    if (prolog.doctype && (prolog.publicId != null || !"game.dtd".equals(prolog.systemId) || prolog.declarations)) {
      throw new IOException("refused: the DOCTYPE names another DTD than game.dtd or declares entities;"
          + " TripleA's own is <!DOCTYPE game SYSTEM \"game.dtd\">");
    }
    return new FileInputStream(path);
  }
}

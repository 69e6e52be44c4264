package library.kxml2;

import java.io.StringReader;
import java.io.StringWriter;
import org.kxml2.io.KXmlParser;
import org.kxml2.io.KXmlSerializer;
import org.kxml2.kdom.Document;
import org.xmlpull.v1.XmlPullParser;

/**
 * The kXML 2 driver of `hindsight bench library`: parses one small document as pull events,
 * printing each, then into a kDOM tree written back out with kXML's serializer. Small on
 * purpose: a session benchmark wants traces of about 10^3 calls. An argument N does all of it
 * N times (about 4 * 10^3 calls each), for larger traces.
 */
public final class Main {
    private static final String DOCUMENT =
            "<?xml version=\"1.0\"?>\n"
            + "<catalog xmlns:b=\"urn:books\" updated=\"2026-11-24\">\n"
            + "  <b:book id=\"b1\" lang=\"en\"><title>Dune</title><price>9.50</price></b:book>\n"
            + "  <b:book id=\"b2\"><title>Solaris &amp; Other</title><price>12</price></b:book>\n"
            + "  <!-- out of print -->\n"
            + "  <empty/>\n"
            + "</catalog>\n";

    private Main() {}

    public static void main(String[] args) throws Exception {
        int times = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        for (int i = 0; i < times; i++) {
            once();
        }
    }

    private static void once() throws Exception {
        KXmlParser parser = parser();
        for (int e = parser.next(); e != XmlPullParser.END_DOCUMENT; e = parser.next()) {
            StringBuilder line = new StringBuilder(XmlPullParser.TYPES[e]);
            if (e == XmlPullParser.START_TAG || e == XmlPullParser.END_TAG) {
                line.append(' ').append(parser.getNamespace()).append(':').append(parser.getName())
                        .append(" depth=").append(parser.getDepth());
                for (int a = 0; a < parser.getAttributeCount(); a++) {
                    line.append(' ').append(parser.getAttributeName(a)).append('=')
                            .append(parser.getAttributeValue(a));
                }
            } else if (e == XmlPullParser.TEXT) {
                line.append(" [").append(parser.getText().trim()).append(']');
            }
            System.out.println(line);
        }
        Document tree = new Document();
        tree.parse(parser());
        StringWriter out = new StringWriter();
        KXmlSerializer serializer = new KXmlSerializer();
        serializer.setOutput(out);
        tree.write(serializer);
        serializer.flush();
        System.out.println(out);
    }

    private static KXmlParser parser() throws Exception {
        KXmlParser parser = new KXmlParser();
        parser.setFeature(XmlPullParser.FEATURE_PROCESS_NAMESPACES, true);
        parser.setInput(new StringReader(DOCUMENT));
        return parser;
    }
}

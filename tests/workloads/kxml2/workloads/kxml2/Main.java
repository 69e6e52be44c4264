package workloads.kxml2;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.kxml2.io.KXmlParser;
import org.kxml2.io.KXmlSerializer;
import org.kxml2.kdom.Document;
import org.xmlpull.v1.XmlPullParser;
import workloads.common.Args;
import workloads.common.Summary;

/**
 * Parses SIZE XML documents with kXML 2, taking the inputs in turn: each is read twice, once as a
 * stream of pull events that are counted and digested, and once into a kDOM tree that is written
 * back out with kXML's serializer. Prints one line of counts and a checksum of all of it.
 */
public final class Main {
    /** Lets the parser accept what real files contain, such as a bare '&' in iso_3166-2.xml. */
    private static final String RELAXED = "http://xmlpull.org/v1/doc/features.html#relaxed";

    private Main() {}

    public static void main(String[] args) throws Exception {
        int size = Args.size("kxml2", args);
        List<Path> inputs = Args.inputs("kxml2", args, ".xml");
        byte[][] documents = new byte[inputs.size()][];
        for (int i = 0; i < documents.length; i++) {
            documents[i] = Files.readAllBytes(inputs.get(i));
        }

        Summary summary = new Summary("kxml2", size);
        for (int i = 0; i < size; i++) {
            byte[] document = documents[i % documents.length];
            summary.add("documents", 1);
            summary.add("input_bytes", document.length);
            pull(parser(document), summary);
            Document tree = new Document();
            tree.parse(parser(document));
            StringWriter out = new StringWriter();
            KXmlSerializer serializer = new KXmlSerializer();
            serializer.setOutput(out);
            tree.write(serializer);
            serializer.flush();
            summary.add("output_chars", out.getBuffer().length());
            summary.digest(out.getBuffer());
        }
        System.out.println(summary.line());
    }

    private static KXmlParser parser(byte[] document) throws Exception {
        KXmlParser parser = new KXmlParser();
        parser.setFeature(XmlPullParser.FEATURE_PROCESS_NAMESPACES, true);
        parser.setFeature(RELAXED, true);
        parser.setInput(new ByteArrayInputStream(document), null);
        return parser;
    }

    /** Counts and digests the pull events of one document. */
    private static void pull(KXmlParser parser, Summary summary) throws Exception {
        for (int event = parser.next(); event != XmlPullParser.END_DOCUMENT; event = parser.next()) {
            switch (event) {
                case XmlPullParser.START_TAG:
                    summary.add("elements", 1);
                    summary.digest(parser.getNamespace());
                    summary.digest(parser.getName());
                    for (int a = 0; a < parser.getAttributeCount(); a++) {
                        summary.add("attributes", 1);
                        summary.digest(parser.getAttributeName(a));
                        summary.digest(parser.getAttributeValue(a));
                    }
                    break;
                case XmlPullParser.TEXT:
                    summary.add("text_chars", parser.getText().length());
                    break;
                default:
                    break;
            }
        }
    }
}

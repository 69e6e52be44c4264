package workloads.htmlcleaner;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.htmlcleaner.CleanerProperties;
import org.htmlcleaner.CommentNode;
import org.htmlcleaner.ContentNode;
import org.htmlcleaner.HtmlCleaner;
import org.htmlcleaner.JDomSerializer;
import org.htmlcleaner.PrettyXmlSerializer;
import org.htmlcleaner.TagNode;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.filter.Filters;
import workloads.common.Args;
import workloads.common.Summary;

/**
 * Cleans SIZE HTML documents with HTMLCleaner, taking the inputs in turn: each is parsed into a
 * tree, walked, queried with HTMLCleaner's XPath, serialized as pretty XML and converted to a
 * JDOM2 document. Prints one line of counts and a checksum of everything produced.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        int size = Args.size("htmlcleaner", args);
        List<Path> inputs = Args.inputs("htmlcleaner", args, ".html");
        String[] documents = new String[inputs.size()];
        for (int i = 0; i < documents.length; i++) {
            // ISO-8859-1 maps every byte to one char, so decoding never fails or varies.
            documents[i] = new String(Files.readAllBytes(inputs.get(i)), StandardCharsets.ISO_8859_1);
        }

        Summary summary = new Summary("htmlcleaner", size);
        CleanerProperties properties = new CleanerProperties();
        properties.setOmitComments(false);
        HtmlCleaner cleaner = new HtmlCleaner(properties);
        for (int i = 0; i < size; i++) {
            String document = documents[i % documents.length];
            summary.add("documents", 1);
            summary.add("input_chars", document.length());
            TagNode root = cleaner.clean(document);
            walk(root, summary);
            summary.add("links", root.evaluateXPath("//a[@href]").length);
            String xml = new PrettyXmlSerializer(properties).getAsString(root);
            summary.add("xml_chars", xml.length());
            summary.digest(xml);
            Document jdom = new JDomSerializer(properties, true).createJDom(root);
            for (Element element : jdom.getDescendants(Filters.element())) {
                summary.add("jdom_elements", 1);
                summary.digest(element.getName());
            }
        }
        System.out.println(summary.line());
    }

    /** Counts and digests the cleaned tree: elements, attributes, text and comments. */
    private static void walk(TagNode root, Summary summary) {
        root.traverse((parent, node) -> {
            if (node instanceof TagNode) {
                TagNode tag = (TagNode) node;
                summary.add("elements", 1);
                summary.digest(tag.getName());
                for (Map.Entry<String, String> attribute : tag.getAttributes().entrySet()) {
                    summary.add("attributes", 1);
                    summary.digest(attribute.getKey());
                    summary.digest(attribute.getValue());
                }
            } else if (node instanceof ContentNode) {
                summary.add("text_chars", ((ContentNode) node).getContent().length());
            } else if (node instanceof CommentNode) {
                summary.add("comments", 1);
            }
            return true;
        });
    }
}

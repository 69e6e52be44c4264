package bst;

public class Main {
    public static void main(String[] args) {
        BinarySearchTree t = new BinarySearchTree();
        String text = "it was the best of times it was the worst of times it was the age of wisdom "
            + "it was the age of foolishness it was the epoch of belief";
        int position = 0;
        for (String word : text.split(" ")) {
            Integer seen = t.get(word);
            t.put(word, seen == null ? 1 : seen + 1);
            position++;
        }
        System.out.println(position + " words, " + t.size() + " distinct, depth " + t.depth());
        System.out.println("all: " + t.range("a", "z"));
        System.out.println("the=" + t.get("the") + " was=" + t.get("was") + " best=" + t.get("best"));
        t.remove("it");
        t.remove("the");
        t.remove("age");
        t.remove("zebra");
        System.out.println("after removals: " + t.range("a", "z"));
        System.out.println(t.size() + " distinct, depth " + t.depth() + ", total count " + t.sum());
        System.out.println("b..f: " + t.range("b", "f"));
        System.out.println("floor(cat)=" + t.floor("cat") + " floor(was)=" + t.floor("was")
            + " floor(aardvark)=" + t.floor("aardvark"));
    }
}

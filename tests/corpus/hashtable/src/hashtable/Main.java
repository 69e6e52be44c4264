package hashtable;

public class Main {
    public static void main(String[] args) {
        String text = "to be or not to be that is the question whether tis nobler in the mind to suffer "
            + "the slings and arrows of outrageous fortune or to take arms against a sea of troubles "
            + "and by opposing end them to die to sleep no more and by a sleep to say we end";
        HashTable counts = new HashTable(4);
        for (String w : text.split(" ")) {
            counts.increment(w);
        }
        System.out.println("distinct " + counts.size() + " capacity " + counts.capacity()
            + " resizes " + counts.resizes() + " longest chain " + counts.longestChain());
        System.out.println("to=" + counts.get("to", 0) + " the=" + counts.get("the", 0)
            + " sleep=" + counts.get("sleep", 0) + " hamlet=" + counts.get("hamlet", -1));
        System.out.println("frequent " + counts.keysAtLeast(3));
        String[] gone = {"to", "and", "xyz", "of", "the"};
        StringBuilder removed = new StringBuilder();
        for (String g : gone) {
            removed.append(counts.remove(g) ? '+' : '-');
        }
        System.out.println("removed " + removed + " distinct " + counts.size());
        System.out.println("frequent " + counts.keysAtLeast(2));
        System.out.println("to=" + counts.get("to", 0) + " be=" + counts.get("be", 0));
    }
}

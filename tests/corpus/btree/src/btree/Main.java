package btree;

public class Main {
    public static void main(String[] args) {
        BTree t = new BTree();
        int seed = 7;
        for (int i = 0; i < 40; i++) {
            seed = (seed * 37 + 11) % 101;
            t.insert(seed);
        }
        for (int k = 200; k > 180; k -= 3) {
            t.insert(k);
        }
        System.out.print(t.shape());
        System.out.println("keys " + t.keys());
        System.out.println("count " + t.keys().size() + " height " + t.height() + " splits " + t.splits());
        StringBuilder hits = new StringBuilder();
        for (int k = 0; k <= 200; k += 10) {
            hits.append(t.contains(k) ? 'x' : '.');
        }
        System.out.println("tens present: " + hits);
    }
}

package avl;

public class Main {
    public static void main(String[] args) {
        AvlTree t = new AvlTree();
        int[] keys = {50, 20, 70, 10, 30, 25, 27, 80, 90, 85, 5, 1, 60, 65, 62, 40, 45, 42};
        for (int k : keys) {
            t.insert(k);
        }
        System.out.println("after inserts: " + t.preorder());
        System.out.println("size " + t.size() + " height " + t.height());
        int[] gone = {20, 85, 50, 1, 62};
        for (int k : gone) {
            t.delete(k);
        }
        System.out.println("after deletes: " + t.preorder());
        System.out.println("size " + t.size() + " height " + t.height());
        StringBuilder found = new StringBuilder();
        for (int k = 0; k <= 100; k += 5) {
            if (t.contains(k)) {
                found.append(k).append(' ');
            }
        }
        System.out.println("multiples of 5 present: " + found.toString().trim());
    }
}

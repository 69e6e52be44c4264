package replaydemo;

/** A node whose weight is scaled: overrides Node.weight(). */
public class Heavy extends Node {
    int factor;

    public Heavy(int value, int factor) {
        super(value, null);
        this.factor = factor;
    }

    @Override
    int weight() {
        return value * factor;
    }
}

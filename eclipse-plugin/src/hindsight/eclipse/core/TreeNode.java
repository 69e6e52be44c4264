package hindsight.eclipse.core;

/**
 * One execution-tree node as the tree shows it.
 *
 * @param id the node id
 * @param kind what the node stands for: a call, a loop, an iteration, a node of the execution forest
 * @param label the node as text: the question about it, e.g. {@code merge([1, 7], [1, 9]) = [1, 1, 7, 9]}
 * @param method the qualified method name (a loop's or an iteration's: the method it runs in; a
 *        projected node's: the method its calls share, or null)
 * @param childCount the number of children known so far
 * @param complete whether the node has ended (only complete nodes are asked about)
 * @param answer the answer given about it, or null
 * @param entry the timestamp of its entry (a forest node's: its first call's)
 * @param exit the timestamp of its exit (a forest node's: its last call's; the entry while incomplete)
 */
public record TreeNode(long id, Kind kind, String label, String method, int childCount, boolean complete,
        Answer answer, long entry, long exit) {

    /** The kinds of node, as the core names them (docs/ARCHITECTURE.md, "Execution forest", "Loops"). */
    public enum Kind {
        /** The whole run. */
        ROOT("run"),
        /** A thread of the program. */
        THREAD("thread"),
        /** A call of an application method. */
        ROUTINE("call"),
        /** A call into uninstrumented code (the JDK). */
        EXTERNAL("call"),
        /** One execution of a loop: its iterations hang below it. */
        LOOP("loop"),
        /** One iteration of a loop: the calls it makes hang below it. */
        ITERATION("loop iteration"),
        /** A chain of calls of one method collapsed into one node. */
        COLLAPSED("collapsed calls"),
        /** A run of sibling calls or iterations (a chain) regrouped under a new node, to halve the questions. */
        PROJECTED("projected chain");

        private final String noun;

        Kind(String noun) {
            this.noun = noun;
        }

        /** The kind's name in the core ({@code collapsed}); an unknown name is a routine. */
        public static Kind of(String name) {
            if (name != null) {
                for (Kind k : values()) {
                    if (k.name().equalsIgnoreCase(name)) {
                        return k;
                    }
                }
            }
            return ROUTINE;
        }

        /** What people call a node of this kind: {@code loop}, {@code collapsed calls}. */
        public String noun() {
            return noun;
        }

        /** Whether the node is a call (of application or uninstrumented code). */
        public boolean isCall() {
            return this == ROUTINE || this == EXTERNAL;
        }

        /** Whether the node is asked about: not the run or a thread. */
        public boolean isAskable() {
            return this != ROOT && this != THREAD;
        }
    }

    /**
     * The node in headers and messages: its method for a call ({@code MergeSort.merge}), with
     * the kind for the others ({@code SumNumbers.sumNumbers (loop iteration)}), its label for
     * the run and the threads.
     */
    public String title() {
        return title(kind, method, label);
    }

    /** {@link #title()} of a node of {@code kind} in {@code method} (may be null). */
    public static String title(Kind kind, String method, String label) {
        boolean named = method != null && !method.isEmpty();
        if (!kind.isAskable()) {
            return label;
        }
        if (kind.isCall()) {
            return named ? method : label;
        }
        return named ? method + " (" + kind.noun() + ")" : kind.noun();
    }
}

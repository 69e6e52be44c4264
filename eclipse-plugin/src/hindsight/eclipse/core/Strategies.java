package hindsight.eclipse.core;

import java.util.List;

/** The strategies the core offers, by the names {@link TraceSession#setStrategy(String)} takes. */
public final class Strategies {
    /** Name and label of each strategy, the default first. */
    public static final List<String[]> ALL = List.of(
            new String[] {"edge-coverage", "Divide & query by edge coverage"},
            new String[] {"def-use-coverage", "Divide & query by def-use coverage"},
            new String[] {"divide-and-query", "Divide & query (Shapiro)"},
            new String[] {"hirunkitti", "Divide & query (Hirunkitti)"},
            new String[] {"optimal", "Optimal (fewest questions in the worst case)"},
            new String[] {"heaviest-first", "Heaviest first"},
            new String[] {"top-down", "Top-down"});

    private Strategies() {
    }
}

package hindsight.probe;

/**
 * A Java agent that only reports its options; it stands in for hindsight-agent.jar in packaging
 * tests (`cargo xtask eclipse-test --probe-artifacts`) until the real agent is built.
 */
public final class ProbeAgent {
    private ProbeAgent() {
    }

    public static void premain(String options) {
        System.err.println("hindsight probe agent: " + options);
    }
}

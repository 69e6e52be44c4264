package hindsight.eclipse.views;

/** Variable paths as people read them. */
public final class Paths {
    private Paths() {
    }

    /**
     * {@code c[2]} for the core's {@code 8:c[2]} (a local of node 8): the node is the call the
     * view names already; {@code pkg.C.f} for {@code static:pkg.C.f}.
     */
    public static String display(String path) {
        if (path == null) {
            return null;
        }
        if (path.startsWith("static:")) {
            return path.substring("static:".length());
        }
        return path.replaceFirst("^\\d+:", "");
    }
}

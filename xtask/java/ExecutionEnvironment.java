import java.lang.module.ModuleDescriptor;
import java.util.TreeSet;

/**
 * Prints an OSGi execution-environment profile (the format of p2's JavaSE-N.profile) for the
 * running JDK: p2 4.26's built-in JRE description stops at Java 11, so bundles that require
 * JavaSE-17 would not install without it. Run with `java ExecutionEnvironment.java`.
 */
public class ExecutionEnvironment {
    public static void main(String[] args) {
        int feature = Runtime.version().feature();
        TreeSet<String> packages = new TreeSet<>();
        for (Module m : ModuleLayer.boot().modules()) {
            String name = m.getName();
            if (!name.startsWith("java.") && !name.startsWith("jdk.")) continue;
            for (ModuleDescriptor.Exports e : m.getDescriptor().exports()) {
                if (!e.isQualified()) packages.add(e.source());
            }
        }
        StringBuilder envs = new StringBuilder("OSGi/Minimum-1.0,OSGi/Minimum-1.1,OSGi/Minimum-1.2,"
            + "JavaSE/compact1-1.8,JavaSE/compact2-1.8,JavaSE/compact3-1.8,JRE-1.1,J2SE-1.2,J2SE-1.3,"
            + "J2SE-1.4,J2SE-1.5,JavaSE-1.6,JavaSE-1.7,JavaSE-1.8");
        StringBuilder javase = new StringBuilder("1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8");
        StringBuilder compact = new StringBuilder("1.8");
        for (int v = 9; v <= feature; v++) {
            envs.append(",JavaSE-").append(v);
            javase.append(", ").append(v).append(".0");
            compact.append(", ").append(v).append(".0");
        }
        System.out.println("osgi.java.profile.name = JavaSE-" + feature);
        System.out.println("org.osgi.framework.executionenvironment = " + envs);
        StringBuilder caps = new StringBuilder()
            .append("osgi.ee; osgi.ee=\"OSGi/Minimum\"; version:List<Version>=\"1.0, 1.1, 1.2\", ")
            .append("osgi.ee; osgi.ee=\"JRE\"; version:List<Version>=\"1.0, 1.1\", ")
            .append("osgi.ee; osgi.ee=\"JavaSE\"; version:List<Version>=\"").append(javase).append("\"");
        for (String c : new String[] {"compact1", "compact2", "compact3"}) {
            caps.append(", osgi.ee; osgi.ee=\"JavaSE/").append(c)
                .append("\"; version:List<Version>=\"").append(compact).append("\"");
        }
        System.out.println("org.osgi.framework.system.capabilities = " + caps);
        System.out.println("org.osgi.framework.system.packages = " + String.join(",", packages));
        System.out.println("org.osgi.framework.bootdelegation = javax.*,org.ietf.jgss,org.omg.*,org.w3c.*,org.xml.*,sun.*,com.sun.*");
    }
}

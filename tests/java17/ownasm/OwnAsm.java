import org.objectweb.asm.ClassReader;

/** A program that ships its own org.objectweb.asm classes (as cglib does). */
public class OwnAsm {
    public static void main(String[] args) throws Exception {
        System.out.println(ClassReader.who());
        System.out.println(ClassReader.class.getClassLoader() == OwnAsm.class.getClassLoader());
        System.out.println(Class.forName("org.objectweb.asm.ClassReader").getMethod("who").invoke(null));
        try {
            Class.forName("org.objectweb.asm.ClassWriter");
            System.out.println("ClassWriter visible");
        } catch (ClassNotFoundException e) {
            System.out.println("no ClassWriter");
        }
    }
}

package hindsight.mutate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Bytecode mutants of a library jar for `hindsight bench library`: each mutant changes one
 * instruction of one method, the kind of slip a programmer makes (an operator, a comparison, a
 * constant off by one).
 *
 * <pre>
 * java -cp asm.jar:asm-tree.jar:CLASSES hindsight.mutate.Mutator list JAR METHODS
 * java -cp ... hindsight.mutate.Mutator write JAR CLASS METHOD DESCRIPTOR INDEX OUT_DIR
 * </pre>
 *
 * {@code list} reads METHODS (one {@code pkg.Class.name descriptor} a line: the methods the
 * correct run called) and prints every mutation point of those methods, one a line:
 * {@code CLASS METHOD DESCRIPTOR INDEX WHAT}, where INDEX is the instruction's position in the
 * method's instruction list and WHAT says what changes ({@code IADD->ISUB}). {@code write} applies
 * one of them and writes the changed class file under OUT_DIR (by its package path), to be put
 * before the jar on the class path. Frames are recomputed only when needed: the mutations keep
 * the stack's shape, so the class is written with its original frames.
 */
public final class Mutator {
    private Mutator() {}

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args.length == 3 && args[0].equals("list")) {
            list(Paths.get(args[1]), Paths.get(args[2]), out);
        } else if (args.length == 7 && args[0].equals("write")) {
            write(Paths.get(args[1]), args[2], args[3], args[4], Integer.parseInt(args[5]), Paths.get(args[6]));
        } else {
            System.err.println("usage: Mutator list JAR METHODS | write JAR CLASS METHOD DESCRIPTOR INDEX OUT_DIR");
            System.exit(2);
        }
    }

    private static void list(Path jar, Path methodsFile, PrintStream out) throws IOException {
        Set<String> wanted = new HashSet<>(Files.readAllLines(methodsFile, StandardCharsets.UTF_8));
        Set<String> classes = new HashSet<>();
        for (String line : wanted) {
            String name = line.split(" ")[0];
            int dot = name.lastIndexOf('.');
            if (dot > 0) {
                classes.add(name.substring(0, dot));
            }
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> entries = new ArrayList<>();
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
                String n = e.nextElement().getName();
                if (n.endsWith(".class")) {
                    entries.add(n);
                }
            }
            entries.sort(null);
            for (String entry : entries) {
                String className = entry.substring(0, entry.length() - 6).replace('/', '.');
                if (!classes.contains(className)) {
                    continue;
                }
                ClassNode node = read(file, entry);
                for (MethodNode m : node.methods) {
                    if (!wanted.contains(className + "." + m.name + " " + m.desc)) {
                        continue;
                    }
                    AbstractInsnNode[] insns = m.instructions.toArray();
                    for (int i = 0; i < insns.length; i++) {
                        String what = describe(insns[i]);
                        if (what != null) {
                            out.println(className + " " + m.name + " " + m.desc + " " + i + " " + what);
                        }
                    }
                }
            }
        }
    }

    private static void write(Path jar, String className, String method, String desc, int index, Path outDir)
            throws IOException {
        String entry = className.replace('.', '/') + ".class";
        try (JarFile file = new JarFile(jar.toFile())) {
            ClassNode node = read(file, entry);
            MethodNode target = null;
            for (MethodNode m : node.methods) {
                if (m.name.equals(method) && m.desc.equals(desc)) {
                    target = m;
                }
            }
            if (target == null) {
                throw new IllegalArgumentException(className + "." + method + desc + " is not in " + jar);
            }
            AbstractInsnNode insn = target.instructions.get(index);
            if (!mutate(target, insn)) {
                throw new IllegalArgumentException("instruction " + index + " of " + className + "." + method + desc + " has no mutation");
            }
            ClassWriter writer = new ClassWriter(0);
            node.accept(writer);
            Path out = outDir.resolve(entry);
            Files.createDirectories(out.getParent());
            Files.write(out, writer.toByteArray());
        }
    }

    private static ClassNode read(JarFile file, String entry) throws IOException {
        JarEntry e = file.getJarEntry(entry);
        if (e == null) {
            throw new IllegalArgumentException(entry + " is not in " + file.getName());
        }
        try (InputStream in = file.getInputStream(e)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            ClassNode node = new ClassNode();
            new ClassReader(bytes.toByteArray()).accept(node, 0);
            return node;
        }
    }

    /** The opcode an arithmetic or comparison opcode becomes, or -1. */
    private static int swapped(int op) {
        switch (op) {
            case Opcodes.IADD: return Opcodes.ISUB;
            case Opcodes.ISUB: return Opcodes.IADD;
            case Opcodes.IMUL: return Opcodes.IADD;
            case Opcodes.IAND: return Opcodes.IOR;
            case Opcodes.IOR: return Opcodes.IAND;
            case Opcodes.LADD: return Opcodes.LSUB;
            case Opcodes.LSUB: return Opcodes.LADD;
            case Opcodes.IFEQ: return Opcodes.IFNE;
            case Opcodes.IFNE: return Opcodes.IFEQ;
            case Opcodes.IFLT: return Opcodes.IFLE;
            case Opcodes.IFLE: return Opcodes.IFLT;
            case Opcodes.IFGT: return Opcodes.IFGE;
            case Opcodes.IFGE: return Opcodes.IFGT;
            case Opcodes.IF_ICMPEQ: return Opcodes.IF_ICMPNE;
            case Opcodes.IF_ICMPNE: return Opcodes.IF_ICMPEQ;
            case Opcodes.IF_ICMPLT: return Opcodes.IF_ICMPLE;
            case Opcodes.IF_ICMPLE: return Opcodes.IF_ICMPLT;
            case Opcodes.IF_ICMPGT: return Opcodes.IF_ICMPGE;
            case Opcodes.IF_ICMPGE: return Opcodes.IF_ICMPGT;
            case Opcodes.IFNULL: return Opcodes.IFNONNULL;
            case Opcodes.IFNONNULL: return Opcodes.IFNULL;
            default: return -1;
        }
    }

    /** Mnemonics of the opcodes mutated, by opcode (the others stay null). */
    private static final String[] NAMES = new String[256];

    static {
        String[][] names = {
            {"ICONST_0", "3"}, {"ICONST_1", "4"}, {"ICONST_2", "5"}, {"ICONST_3", "6"}, {"ICONST_4", "7"},
            {"ICONST_5", "8"}, {"BIPUSH", "16"}, {"SIPUSH", "17"}, {"IADD", "96"}, {"LADD", "97"},
            {"ISUB", "100"}, {"LSUB", "101"}, {"IMUL", "104"}, {"IAND", "126"}, {"IOR", "128"},
            {"IFEQ", "153"}, {"IFNE", "154"}, {"IFLT", "155"}, {"IFGE", "156"}, {"IFGT", "157"},
            {"IFLE", "158"}, {"IF_ICMPEQ", "159"}, {"IF_ICMPNE", "160"}, {"IF_ICMPLT", "161"},
            {"IF_ICMPGE", "162"}, {"IF_ICMPGT", "163"}, {"IF_ICMPLE", "164"}, {"IFNULL", "198"},
            {"IFNONNULL", "199"},
        };
        for (String[] n : names) {
            NAMES[Integer.parseInt(n[1])] = n[0];
        }
    }

    /** What the mutation of `insn` does, or null when it has none. */
    private static String describe(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        if (swapped(op) >= 0) {
            return NAMES[op] + "->" + NAMES[swapped(op)];
        }
        if (op >= Opcodes.ICONST_0 && op <= Opcodes.ICONST_4) {
            return NAMES[op] + "->" + NAMES[op + 1];
        }
        if (insn instanceof IntInsnNode && (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH)) {
            int v = ((IntInsnNode) insn).operand;
            return NAMES[op] + " " + v + "->" + (v + 1);
        }
        if (insn instanceof IincInsnNode) {
            int v = ((IincInsnNode) insn).incr;
            return "IINC " + v + "->" + (-v);
        }
        return null;
    }

    private static boolean mutate(MethodNode m, AbstractInsnNode insn) {
        int op = insn.getOpcode();
        int to = swapped(op);
        if (to >= 0) {
            if (insn instanceof JumpInsnNode) {
                m.instructions.set(insn, new JumpInsnNode(to, ((JumpInsnNode) insn).label));
            } else {
                m.instructions.set(insn, new InsnNode(to));
            }
            return true;
        }
        if (op >= Opcodes.ICONST_0 && op <= Opcodes.ICONST_4) {
            m.instructions.set(insn, new InsnNode(op + 1));
            return true;
        }
        if (insn instanceof IntInsnNode && (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH)) {
            IntInsnNode n = (IntInsnNode) insn;
            int v = n.operand + 1;
            m.instructions.set(insn, op == Opcodes.BIPUSH && v > Byte.MAX_VALUE
                    ? new IntInsnNode(Opcodes.SIPUSH, v) : new IntInsnNode(op, v));
            return true;
        }
        if (insn instanceof IincInsnNode) {
            IincInsnNode n = (IincInsnNode) insn;
            n.incr = -n.incr;
            return true;
        }
        return false;
    }
}

package workloads.countagent.impl;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Increments {@code Counts.calls} at a method's entry, {@code Counts.lines} at each line reached
 * and {@code Counts.writes} at each field or array store. A line's increment goes before the
 * line's first instruction, which comes after any stack-map frame at the line's label; for a
 * {@code NEW} it goes after the instruction, because a frame may name the label as the
 * {@code Uninitialized} value that the {@code NEW} creates.
 */
final class Counting extends MethodVisitor {
    private static final String COUNTS = "workloads/countagent/Counts";
    private boolean lineStarted;

    Counting(MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    private void increment(String counter) {
        super.visitFieldInsn(Opcodes.GETSTATIC, COUNTS, counter, "J");
        super.visitInsn(Opcodes.LCONST_1);
        super.visitInsn(Opcodes.LADD);
        super.visitFieldInsn(Opcodes.PUTSTATIC, COUNTS, counter, "J");
    }

    private void countLine() {
        if (lineStarted) {
            lineStarted = false;
            increment("lines");
        }
    }

    @Override
    public void visitCode() {
        super.visitCode();
        increment("calls");
    }

    @Override
    public void visitLineNumber(int line, Label start) {
        super.visitLineNumber(line, start);
        lineStarted = true;
    }

    @Override
    public void visitInsn(int opcode) {
        countLine();
        if (opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE) {
            increment("writes");
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        countLine();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int local) {
        countLine();
        super.visitVarInsn(opcode, local);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (opcode == Opcodes.NEW) {
            super.visitTypeInsn(opcode, type);
            countLine();
        } else {
            countLine();
            super.visitTypeInsn(opcode, type);
        }
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        countLine();
        if (opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC) {
            increment("writes");
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
            boolean isInterface) {
        countLine();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap,
            Object... arguments) {
        countLine();
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        countLine();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        countLine();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int local, int increment) {
        countLine();
        super.visitIincInsn(local, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label otherwise, Label... labels) {
        countLine();
        super.visitTableSwitchInsn(min, max, otherwise, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label otherwise, int[] keys, Label[] labels) {
        countLine();
        super.visitLookupSwitchInsn(otherwise, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
        countLine();
        super.visitMultiANewArrayInsn(descriptor, dimensions);
    }
}

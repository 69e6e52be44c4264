package hindsight.eclipse.views;

import hindsight.eclipse.Activator;
import org.eclipse.jface.resource.CompositeImageDescriptor;
import org.eclipse.jface.resource.ImageDescriptor;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.PlatformUI;

/**
 * Colours and icons of the views. Colours are the theme's (plugin.xml's colour definitions,
 * which Preferences > Colors and Fonts may change); on a dark background they are darkened so
 * that the text stays readable. Colour never comes alone: every coloured state has an icon or
 * a text too.
 */
public final class Theme {
    public static final String VALID = "hindsight.eclipse.valid";
    public static final String INVALID = "hindsight.eclipse.invalid";
    public static final String TRUSTED = "hindsight.eclipse.trusted";
    public static final String BUGGY = "hindsight.eclipse.buggy";
    public static final String CHANGED = "hindsight.eclipse.changed";
    public static final String CONTAINS_CHANGE = "hindsight.eclipse.containsChange";

    private Theme() {
    }

    /** The theme's colour {@code id}, adapted to the background of {@code on} (may be null). */
    public static Color color(String id, Control on) {
        var registry = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry();
        RGB rgb = registry.getRGB(id);
        if (rgb == null) {
            return null;
        }
        boolean dark = on != null && !on.isDisposed() && luminance(on.getBackground().getRGB()) < 0.4;
        boolean background = !CHANGED.equals(id);
        if (dark && background) {
            // A pale background colour on a dark theme: keep the hue, drop the brightness.
            rgb = new RGB(rgb.red * 2 / 5, rgb.green * 2 / 5, rgb.blue * 2 / 5);
        } else if (dark) {
            rgb = new RGB(Math.min(255, rgb.red + 80), Math.min(255, rgb.green + 80), Math.min(255, rgb.blue + 80));
        }
        String key = id + (dark ? ".dark" : "");
        var colors = JFaceResources.getColorRegistry();
        if (!colors.hasValueFor(key) || !colors.getRGB(key).equals(rgb)) {
            colors.put(key, rgb);
        }
        return colors.get(key);
    }

    static double luminance(RGB c) {
        return (0.299 * c.red + 0.587 * c.green + 0.114 * c.blue) / 255;
    }

    /** The width of {@link #nodeIcon}: two icons of 16 pixels and a gap. */
    static final int NODE_ICON_WIDTH = 34;

    /**
     * A tree row's icon: the answer's (or the bug's, or running) on the left, empty when there is
     * none, and the node's kind's on the right ({@code icons/NAME.png} each, either may be null).
     * Every row of a tree must have an image of one size, hence one image for both; shared.
     */
    public static Image nodeIcon(String state, String kind) {
        var images = JFaceResources.getImageRegistry();
        String key = Activator.PLUGIN_ID + "/node/" + state + "+" + kind;
        Image image = images.get(key);
        if (image == null) {
            Image left = state == null ? null : icon(state);
            Image right = kind == null ? null : icon(kind);
            images.put(key, new CompositeImageDescriptor() {
                @Override
                protected void drawCompositeImage(int width, int height) {
                    if (left != null) {
                        drawImage(createCachedImageDataProvider(left), 0, 0);
                    }
                    if (right != null) {
                        drawImage(createCachedImageDataProvider(right), NODE_ICON_WIDTH - 16, 0);
                    }
                }

                @Override
                protected Point getSize() {
                    return new Point(NODE_ICON_WIDTH, 16);
                }
            });
            image = images.get(key);
        }
        return image;
    }

    /** The plugin's icon {@code icons/NAME.png}, shared. */
    public static Image icon(String name) {
        var images = JFaceResources.getImageRegistry();
        String key = Activator.PLUGIN_ID + "/" + name;
        Image image = images.get(key);
        if (image == null) {
            images.put(key, ImageDescriptor.createFromURL(
                    Activator.getDefault().getBundle().getEntry("icons/" + name + ".png")));
            image = images.get(key);
        }
        return image;
    }
}

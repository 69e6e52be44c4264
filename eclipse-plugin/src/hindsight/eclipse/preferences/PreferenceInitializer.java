package hindsight.eclipse.preferences;

import static hindsight.eclipse.preferences.PreferenceConstants.*;

import org.eclipse.core.runtime.preferences.AbstractPreferenceInitializer;
import org.eclipse.jface.preference.IPreferenceStore;

/** Sets the preferences' defaults. */
public class PreferenceInitializer extends AbstractPreferenceInitializer {
    @Override
    public void initializeDefaultPreferences() {
        IPreferenceStore s = store();
        s.setDefault(STRATEGY, DEFAULT_STRATEGY);
        s.setDefault(P_EDGES, DEFAULT_P_EDGES);
        s.setDefault(P_DEF_USE, DEFAULT_P_DEF_USE);
        s.setDefault(TRUSTED_PACKAGES, DEFAULT_TRUSTED_PACKAGES);
        s.setDefault(PERSISTENCE_BOUND, DEFAULT_PERSISTENCE_BOUND);
        s.setDefault(LOGIC_BOUND, DEFAULT_LOGIC_BOUND);
        s.setDefault(PRESENTATION_DEPTH, DEFAULT_PRESENTATION_DEPTH);
        s.setDefault(BALANCE, DEFAULT_BALANCE);
        s.setDefault(LOOPS, DEFAULT_LOOPS);
        s.setDefault(MAX_CHAIN, DEFAULT_MAX_CHAIN);
    }
}

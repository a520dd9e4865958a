import './jsdom-polyfills';
import { installConsoleHarness } from './harness';

// One API stub, session, language, query cache and clean-up for every test file.
installConsoleHarness();

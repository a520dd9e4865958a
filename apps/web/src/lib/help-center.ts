/** External help-center site; the menu opens it in a new tab, never inside the console. */
export const HELP_CENTER_URL: string = import.meta.env.VITE_HELP_CENTER_URL || 'https://help.example.com';

import MarkdownIt from 'markdown-it';

// Raw HTML is escaped, not passed through, and markdown-it refuses javascript: and similar links.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Markdown as safe HTML (the operator's terms file: headings, lists, emphasis, links). */
export function renderMarkdown(text: string): string {
  return markdown.render(text);
}

/**
 * The http(s) URLs a fetch prompt names, each in its normal form (`new URL(word).href`): every
 * whitespace-separated word holding `://` that parses as a URL, as Gemini CLI's `web_fetch` reads
 * the URLs it fetches from its `prompt` (`parsePrompt` in packages/core/src/tools/web-fetch.ts of
 * github:google-gemini/gemini-cli). Other schemes are left out.
 */
export function promptUrls(prompt: string): string[] {
  return prompt.split(/\s+/).flatMap((word) => {
    if (!word.includes('://') || !URL.canParse(word)) return [];
    const url = new URL(word);
    return url.protocol === 'http:' || url.protocol === 'https:' ? [url.href] : [];
  });
}

/** registry.md D1: where hookpm keeps settings (config), state and trees (data), and downloads (cache). */
export interface StorePaths {
  config: string;
  data: string;
  cache: string;
}

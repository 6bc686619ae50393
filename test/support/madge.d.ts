// The part of madge's API the import-cycle test uses (madge ships no type declarations).
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  interface MadgeInstance {
    /** Each module (relative to the base directory) with the modules it imports. */
    obj(): Record<string, string[]>;
    /** Each import cycle, as the modules along it. */
    circular(): string[][];
    /** Files madge could not resolve or parse. */
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeInstance>;
}

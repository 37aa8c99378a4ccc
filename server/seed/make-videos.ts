/**
 * Writes the four demo videos (server/seed/files/demo/video/*.mp4) from the video posters that
 * make-images.ts draws: each poster is rendered to a PNG in Chromium, then ffmpeg makes a 6-second H.264
 * clip of it (a slow zoom, a fade in and out, a caption bar with the bilingual title and a growing progress
 * line). Nothing is downloaded; each clip stays well under 300 KB.
 *
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and ffmpeg with libx264 (Debian: apt-get install
 * ffmpeg). Run: node --import tsx server/seed/make-videos.ts
 * The outputs are shipped (the site config's videoCollections point at /files/demo/video/...).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser } from '../../tests/e2e/browser-launch.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'files', 'demo', 'video');
const FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc';
const WIDTH = 640;
const HEIGHT = 360;
const SECONDS = 6;
const FPS = 24;

/** The clips: file name, poster, caption (as the site config titles them). */
export const DEMO_VIDEOS = [
  { file: 'highlight-2026.mp4', poster: 'video-poster-1.svg', caption: '2026 官方集锦 · Official Highlights' },
  { file: 'start-2026.mp4', poster: 'video-poster-2.svg', caption: '鸣枪时刻 · The Start' },
  { file: 'night-run-2026.mp4', poster: 'video-poster-3.svg', caption: '千灯廊夜跑 · Night Run' },
  { file: 'finish-2026.mp4', poster: 'video-poster-4.svg', caption: '终点线上 · At the Finish' },
] as const;

async function renderPosters(work: string): Promise<void> {
  // Debian's Chromium with the house flags (headless, no background networking); nothing is downloaded.
  const browser = await launchBrowser();
  try {
    // The posters are 800 × 450 (16:9); ffmpeg scales them.
    const page = await browser.newPage({ viewport: { width: 800, height: 450 } });
    for (const video of DEMO_VIDEOS) {
      await page.goto(pathToFileURL(join(DIR, video.poster)).href, { waitUntil: 'load' });
      // The clip shows the scene only: the poster's play button, title and duration (everything drawn after
      // its last full-size overlay) belong to the poster.
      await page.evaluate(() => {
        // Runs in the page (the poster SVG document), where the DOM exists.
        interface Node {
          tagName: string;
          children: Iterable<Node>;
          nextElementSibling: Node | null;
          getAttribute: (name: string) => string | null;
          remove: () => void;
        }
        const root = (globalThis as unknown as { document: { documentElement: Node } }).document.documentElement;
        const overlays = [...root.children].filter(
          (el) => el.tagName === 'rect' && el.getAttribute('width') === '800' && el.getAttribute('height') === '450',
        );
        let next = overlays.at(-1)?.nextElementSibling;
        while (next) {
          const drop = next;
          next = next.nextElementSibling;
          drop.remove();
        }
      });
      await page.screenshot({ path: join(work, `${video.poster}.png`) });
    }
  } finally {
    await browser.close();
  }
}

/** ffmpeg's drawtext wants ':' and '\'' escaped. */
const drawtextEscape = (text: string) => text.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

function encode(png: string, caption: string, out: string): void {
  const frames = SECONDS * FPS;
  const filter = [
    // Work at twice the size so the slow zoom does not jitter, then scale down.
    `scale=${WIDTH * 2}:${HEIGHT * 2}`,
    `zoompan=z='1+0.08*on/${frames}':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=${frames}:s=${WIDTH}x${HEIGHT}:fps=${FPS}`,
    `drawbox=x=0:y=ih-44:w=iw:h=44:color=black@0.55:t=fill`,
    `drawtext=fontfile=${FONT}:text='${drawtextEscape(caption)}':fontcolor=white:fontsize=20:x=16:y=h-33`,
    `drawbox=x=0:y=ih-4:w='iw*t/${SECONDS}':h=4:color=0xf2b233:t=fill`,
    `fade=t=in:st=0:d=0.6,fade=t=out:st=${SECONDS - 0.6}:d=0.6`,
    'format=yuv420p',
  ].join(',');
  execFileSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      png,
      '-vf',
      filter,
      '-t',
      String(SECONDS),
      '-c:v',
      'libx264',
      '-profile:v',
      'main',
      '-preset',
      'slow',
      '-crf',
      '30',
      '-movflags',
      '+faststart',
      '-an',
      // No encoder settings or dates in the file, so a re-run gives the same bytes.
      '-map_metadata',
      '-1',
      '-fflags',
      '+bitexact',
      '-flags:v',
      '+bitexact',
      out,
    ],
    { stdio: 'inherit' },
  );
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'demo-videos-'));
  try {
    await renderPosters(work);
    for (const video of DEMO_VIDEOS) {
      const out = join(DIR, video.file);
      encode(join(work, `${video.poster}.png`), video.caption, out);
      console.log(`${video.file}: ${Math.round(statSync(out).size / 1024)} KB`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

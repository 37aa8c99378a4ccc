import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentDialog } from './content-dialog';
import { ContentIcon } from './content-icons';

export interface PlayableVideo {
  title: string;
  summary: string;
  /** Resolved file URL; undefined when the configured one is unusable. */
  src?: string;
  poster?: string;
}

/**
 * The video player in a modal: starts playing when opened (the visitor asked for it); a video that cannot
 * load shows a message in the visitor's language instead of a dead player.
 */
export function VideoPlayer({ video, onClose }: { video: PlayableVideo; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(!video.src);

  useEffect(() => {
    const element = ref.current;
    if (!element || !video.src) return;
    try {
      const playing = element.play();
      // NotAllowedError (autoplay refused) leaves the controls to the visitor; a missing or broken file
      // rejects with NotSupportedError, and the element's error event shows the message.
      playing?.catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotSupportedError') setFailed(true);
      });
    } catch {
      // Environments without media playback: the controls stay.
    }
  }, [video.src]);

  return (
    <ContentDialog
      label={t('content.video.player')}
      closeLabel={t('content.video.close')}
      className="video-dialog"
      onClose={onClose}
    >
      <div className="video-dialog__stage" data-testid="video-player">
        {failed ? (
          <div className="video-dialog__failed" data-testid="video-failed">
            {video.poster ? (
              <img className="video-dialog__failed-poster" src={video.poster} alt="" width={1280} height={720} />
            ) : null}
            <div className="video-dialog__failed-text" role="alert">
              <ContentIcon name="alert" size={40} />
              <p>{t('content.video.failed')}</p>
            </div>
          </div>
        ) : (
          // The site configuration carries no caption files (videoCollections: id, pic, src, title, summary).
          // eslint-disable-next-line jsx-a11y/media-has-caption
          <video
            ref={ref}
            className="video-dialog__video"
            controls
            preload="none"
            playsInline
            src={video.src}
            poster={video.poster}
            width={1280}
            height={720}
            onError={() => setFailed(true)}
            aria-label={video.title}
          />
        )}
      </div>
      <div className="video-dialog__info">
        <p className="video-dialog__title">{video.title}</p>
        {video.summary ? <p className="video-dialog__summary">{video.summary}</p> : null}
      </div>
    </ContentDialog>
  );
}

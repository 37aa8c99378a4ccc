/**
 * Scanning a pass's QR code with the device's camera, where the browser can read QR codes itself (the
 * BarcodeDetector of Chrome on Android, among others); elsewhere the button is not shown, and a handheld
 * scanner (it types the code and Enter) or typing does the same.
 */
import { Button, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Detector {
  detect: (source: HTMLVideoElement) => Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const detectorClass = (): DetectorClass | undefined =>
  (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

export function CameraScan({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState('');
  const video = useRef<HTMLVideoElement>(null);
  const Detector = detectorClass();

  useEffect(() => {
    if (!open || !Detector) return undefined;
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    let live = true;
    const detector = new Detector({ formats: ['qr_code'] });
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (media) => {
        stream = media;
        if (!live || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        const look = async () => {
          if (!live || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          const code = found[0]?.rawValue;
          if (code) {
            setOpen(false);
            onCode(code);
            return;
          }
          timer = window.setTimeout(() => void look(), 250);
        };
        void look();
      })
      .catch(() => setProblem(t('checkin.camera.denied')));
    return () => {
      live = false;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [open, Detector, onCode, t]);

  if (!Detector || !navigator.mediaDevices?.getUserMedia) return null;
  return (
    <>
      <Button
        size="large"
        block
        className="checkin-camera"
        onClick={() => {
          setProblem('');
          setOpen(true);
        }}
      >
        {t('checkin.camera.open')}
      </Button>
      <Modal
        open={open}
        title={t('checkin.camera.title')}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        {problem ? (
          <Typography.Text type="danger">{problem}</Typography.Text>
        ) : (
          <video
            ref={video}
            className="checkin-camera__video"
            muted
            playsInline
            aria-label={t('checkin.camera.title')}
          />
        )}
      </Modal>
    </>
  );
}

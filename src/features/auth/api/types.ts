/** What a passed slider check hands on to a send-code call (spec §7 "slider fields"). */
export interface SliderPass {
  nc_token: string;
  sig: string;
  sessionId: string;
  scene: string;
}

//! The live display on stderr: prefill progress (bytes, rate, time left) and, while
//! measuring, IOPS, MB/s and p99 of the last second with the time left. Hidden when stderr
//! is not a terminal or with --quiet. For a launching dbio, lines instead
//! (`dbio_orchestrate::progress::Lines`).

use dbio_orchestrate::progress::Lines;
use dbio_runner::Event;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// The progress display of one run.
pub struct Progress {
    quiet: bool,
    bar: Option<ProgressBar>,
    prefill_of: String,
    /// Seconds planned after this run (later sweep steps, later suite parts), and this
    /// run's own planned seconds: together the time left in all.
    more: Option<f64>,
    planned: Option<f64>,
    /// Measuring and every second as a line on stderr, for a launching dbio (--hosts); its
    /// `dbio-finishing` heartbeat lasts until this is dropped (with the display, once the
    /// result is delivered).
    lines: Option<Lines<std::io::Stderr>>,
}

impl Progress {
    /// A display that shows nothing when `quiet`.
    pub fn new(quiet: bool) -> Self {
        Progress {
            quiet,
            bar: None,
            prefill_of: String::new(),
            more: None,
            planned: None,
            lines: None,
        }
    }

    /// Writes progress as lines a launching dbio reads instead of drawing it.
    pub fn line_mode(mut self, on: bool) -> Self {
        self.lines = on.then(|| Lines::new(std::io::stderr()));
        self
    }

    /// Also shows the time left in all when `secs` more are planned after this run.
    pub fn more_after(mut self, secs: f64) -> Self {
        self.more = (secs > 0.0).then_some(secs);
        self
    }

    fn new_bar(&mut self, len: Option<u64>, template: &str) -> &ProgressBar {
        self.finish();
        self.bar.insert(bar(len, template))
    }

    /// Shows one runner event.
    pub fn on(&mut self, ev: Event) {
        if let Some(lines) = &mut self.lines {
            lines.on(ev);
            return;
        }
        if self.quiet {
            if let Event::Notice(m) = ev {
                eprintln!("dbio: {m}");
            }
            return;
        }
        match ev {
            Event::Prefill {
                target,
                done,
                total,
            } => {
                if self.prefill_of != target {
                    self.prefill_of = target.to_string();
                    let bar = self.new_bar(
                        Some(total),
                        "prefill {prefix} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}, {eta} left",
                    );
                    bar.set_prefix(target.to_string());
                }
                if let Some(b) = &self.bar {
                    b.set_position(done);
                }
            }
            Event::Measuring { planned_secs } => {
                self.planned = planned_secs;
                let bar = match planned_secs {
                    Some(s) => self.new_bar(
                        Some((s * 10.0).ceil() as u64),
                        "{elapsed} [{bar:30}] {msg} ({eta} left)",
                    ),
                    None => self.new_bar(None, "{spinner} {elapsed} {msg}"),
                };
                bar.set_message("starting");
            }
            Event::Tick { point, elapsed } => {
                let in_all = match (self.more, self.planned) {
                    (Some(m), Some(p)) => Some((p - elapsed).max(0.0) + m),
                    _ => None,
                };
                if let Some(b) = &self.bar {
                    b.set_position((elapsed * 10.0) as u64);
                    b.set_message(dbio_report::live::second(point, in_all));
                }
            }
            Event::Notice(m) => match &self.bar {
                Some(b) => b.println(format!("dbio: {m}")),
                None => eprintln!("dbio: {m}"),
            },
            Event::Finishing => {}
        }
    }

    /// Removes the display.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

/// A bar on stderr of `len` steps (a spinner without), drawn by `template`, redrawn 4 times
/// a second.
pub fn bar(len: Option<u64>, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

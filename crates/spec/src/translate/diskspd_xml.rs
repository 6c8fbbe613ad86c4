//! DiskSpd's XML profiles (`-X`, the layout `diskspd -Rpxml` prints) turned back into the
//! command-line options they stand for, so one translator reads both.

use crate::error::SpecError;

/// A profile's settings as DiskSpd options, its targets (paths or `*N` templates), and the
/// elements dbio does not read.
#[derive(Debug, Default, PartialEq)]
pub struct ProfileArgs {
    pub args: Vec<String>,
    pub targets: Vec<String>,
    pub unknown: Vec<String>,
}

/// One element with text and no child elements: its name, the attributes dbio reads
/// (`unit`, `IO`), its text and the element it lies in.
#[derive(Debug)]
struct Leaf {
    name: String,
    unit: Option<String>,
    /// A distribution range's share of the I/O (`<Range IO="90">`).
    io: Option<String>,
    text: String,
    /// Index of the `<Target>` it lies in, if any.
    target: Option<usize>,
    /// The name of the element it lies in (`Percent` for a `<Range>` of a percent
    /// distribution).
    parent: String,
}

/// The value of attribute `name` in an element's tag (`Range IO="90"`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    tag.split_whitespace()
        .skip(1)
        .find_map(|a| a.strip_prefix(name)?.strip_prefix("=\""))
        .and_then(|r| r.split_once('"'))
        .map(|(v, _)| v.to_string())
}

/// Reads the leaf elements of a profile in order.
fn leaves(xml: &str) -> Result<Vec<Leaf>, SpecError> {
    let mut out = Vec::new();
    // Each open element: its name, its `unit` and `IO` attributes, and whether it has children.
    type Open = (String, Option<String>, Option<String>, bool);
    let mut stack: Vec<Open> = Vec::new();
    let (mut targets, mut timespans) = (0usize, 0usize);
    let mut rest = xml;
    let mut text = String::new();
    while let Some(lt) = rest.find('<') {
        text.push_str(&rest[..lt]);
        rest = &rest[lt..];
        let gt = rest.find('>').ok_or("an element is not closed with '>'")?;
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let (open, unit, io, has_child) =
                stack.pop().ok_or("a closing tag without its opening")?;
            if open != name.trim() {
                return Err(format!("<{open}> is closed by </{}>", name.trim()).into());
            }
            if !has_child {
                let in_target = stack.iter().any(|(n, ..)| n == "Target");
                out.push(Leaf {
                    name: open,
                    unit,
                    io,
                    text: text.trim().to_string(),
                    target: in_target.then(|| targets.saturating_sub(1)),
                    parent: stack.last().map(|o| o.0.clone()).unwrap_or_default(),
                });
            }
            text.clear();
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name = tag.split_whitespace().next().unwrap_or("").to_string();
        let (unit, io) = (attribute(tag, "unit"), attribute(tag, "IO"));
        if let Some(parent) = stack.last_mut() {
            parent.3 = true;
        }
        targets += usize::from(name == "Target");
        timespans += usize::from(name == "TimeSpan");
        if timespans > 1 {
            return Err(
                "the profile has several <TimeSpan>s; dbio runs one: keep one per profile".into(),
            );
        }
        if !self_closing {
            stack.push((name, unit, io, false));
        }
        text.clear();
    }
    if let Some((open, ..)) = stack.last() {
        return Err(format!("<{open}> is never closed").into());
    }
    Ok(out)
}

/// The profile's settings as DiskSpd options. Several `<Target>`s must share their settings
/// (dbio runs one workload over all its targets).
pub fn to_args(xml: &str) -> Result<ProfileArgs, SpecError> {
    let mut p = ProfileArgs::default();
    let mut per_target: Vec<Vec<String>> = Vec::new();
    // Each target's distribution: `-rdpct` or `-rdabs` and its IO/RANGE pairs, in order.
    let mut ranges: Vec<Option<(&str, Vec<String>)>> = Vec::new();
    for leaf in leaves(xml)? {
        if leaf.name == "Path" {
            p.targets.push(leaf.text.clone());
            continue;
        }
        if let (Some(i), Some(kind)) = (leaf.target, distribution(&leaf)) {
            ranges.resize(ranges.len().max(i + 1), None);
            let io = leaf.io.as_deref().unwrap_or("0");
            let d = ranges[i].get_or_insert((kind, Vec::new()));
            d.1.push(format!("{io}/{}", leaf.text));
            continue;
        }
        let arg = match option(&leaf) {
            Ok(a) => a,
            Err(()) => {
                p.unknown.push(leaf.name.clone());
                continue;
            }
        };
        match leaf.target {
            Some(i) => {
                per_target.resize(per_target.len().max(i + 1), Vec::new());
                per_target[i].extend(arg);
            }
            None => p.args.extend(arg),
        }
    }
    for (i, d) in ranges.into_iter().enumerate() {
        if let Some((kind, pairs)) = d {
            per_target.resize(per_target.len().max(i + 1), Vec::new());
            per_target[i].push(format!("{kind}{}", pairs.join(":")));
        }
    }
    if per_target.windows(2).any(|w| w[0] != w[1]) {
        return Err("the profile's targets have different settings; dbio runs one workload over all its targets, so give them the same settings or run them apart".into());
    }
    p.args
        .extend(per_target.into_iter().next().unwrap_or_default());
    Ok(p)
}

/// The command-line form of a `<Distribution>` a `<Range>` lies in: `-rdpct` (`<Percent>`)
/// or `-rdabs` (`<Absolute>`, sizes in bytes); None for any other element.
fn distribution(l: &Leaf) -> Option<&'static str> {
    match (l.name.as_str(), l.parent.as_str()) {
        ("Range", "Percent") => Some("-rdpct"),
        ("Range", "Absolute") => Some("-rdabs"),
        _ => None,
    }
}

/// The option one element stands for (none when it holds DiskSpd's default).
fn option(l: &Leaf) -> Result<Vec<String>, ()> {
    let v = l.text.as_str();
    let yes = v.eq_ignore_ascii_case("true");
    let nonzero = v != "0" && !v.is_empty();
    let one = |flag: &str, on: bool| {
        Ok(if on {
            vec![format!("{flag}{v}")]
        } else {
            Vec::new()
        })
    };
    let flag = |flag: &str, on: bool| {
        Ok(if on {
            vec![flag.to_string()]
        } else {
            Vec::new()
        })
    };
    match l.name.as_str() {
        "Duration" => one("-d", true),
        "Warmup" => one("-W", true),
        "Cooldown" => one("-C", true),
        "RandSeed" => one("-z", true),
        "ThreadCount" => one("-F", nonzero),
        "RequestCount" if l.target.is_none() => one("-O", nonzero),
        "RequestCount" => one("-o", true),
        "BlockSize" => one("-b", true),
        "BaseFileOffset" => one("-B", nonzero),
        "FileSize" => one("-c", nonzero),
        "Random" => one("-r", true),
        "StrideSize" => one("-s", true),
        "ThreadStride" => one("-T", nonzero),
        "MaxFileSize" => one("-f", nonzero),
        "WriteRatio" => one("-w", true),
        "ThreadsPerFile" => one("-t", true),
        "IOPriority" => one("-I", v != "3"),
        "Progress" => one("-P", nonzero),
        "ResultFormat" => one("-R", true),
        "IoBucketDuration" => one("-D", v != "1000"),
        "Throughput" if l.unit.as_deref() == Some("IOPS") => Ok(if nonzero {
            vec![format!("-g{v}i")]
        } else {
            Vec::new()
        }),
        "Throughput" => one("-g", nonzero),
        "MeasureLatency" => flag("-L", yes),
        "Verbose" => flag("-v", yes),
        "CompletionRoutines" => flag("-x", yes),
        "DisableAffinity" => flag("-n", yes),
        "CalculateIopsStdDev" => flag("-D", yes),
        "DisableAllCache" => flag("-Sh", yes),
        "DisableOSCache" => flag("-Su", yes),
        "DisableLocalCache" => flag("-Sr", yes),
        "WriteThrough" => flag("-Sw", yes),
        "MemoryMappedIo" => flag("-Sm", yes),
        "RandomRatio" => one("-rs", true),
        "BurstSize" => one("-i", nonzero),
        "ThinkTime" => one("-j", nonzero),
        "SequentialScan" => flag("-fs", yes),
        "RandomAccess" => flag("-fr", yes),
        "TemporaryFile" => flag("-ft", yes),
        "UseLargePages" => flag("-l", yes),
        "ParallelAsyncIO" => flag("-p", yes),
        "InterlockedSequential" => flag("-si", yes),
        "FlushType" => match v {
            "ViewOfFile" => flag("-Nv", true),
            "NonVolatileMemory" => flag("-Nn", true),
            "NonVolatileMemoryNoDrain" => flag("-Ni", true),
            _ => Err(()),
        },
        "Pattern" => match v {
            "sequential" => Ok(Vec::new()),
            "zero" => flag("-Z", true),
            "random" => flag("-Zr", true),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROFILE: &str = r#"<?xml version="1.0"?>
<Profile>
  <Progress>0</Progress>
  <ResultFormat>text</ResultFormat>
  <TimeSpans>
    <TimeSpan>
      <MeasureLatency>true</MeasureLatency>
      <Duration>60</Duration>
      <Warmup>5</Warmup>
      <Cooldown>0</Cooldown>
      <ThreadCount>0</ThreadCount>
      <RandSeed>0</RandSeed>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>8192</BlockSize>
          <DisableOSCache>true</DisableOSCache>
          <WriteThrough>true</WriteThrough>
          <WriteBufferContent><Pattern>sequential</Pattern></WriteBufferContent>
          <Random>8192</Random>
          <RequestCount>32</RequestCount>
          <WriteRatio>25</WriteRatio>
          <Throughput unit="IOPS">0</Throughput>
          <ThreadsPerFile>4</ThreadsPerFile>
          <IOPriority>3</IOPriority>
        </Target>
      </Targets>
    </TimeSpan>
  </TimeSpans>
</Profile>"#;

    #[test]
    fn a_profile_is_its_command_line() {
        let p = to_args(PROFILE).unwrap();
        assert_eq!(
            p.args.join(" "),
            "-Rtext -L -d60 -W5 -C0 -z0 -b8192 -Su -Sw -r8192 -o32 -w25 -t4"
        );
        assert_eq!(p.targets, ["*1"]);
        assert!(p.unknown.is_empty());
    }

    /// The elements as diskspd.xsd and XmlProfileParser.cpp read them: `<Range IO="x">y`
    /// is the pair x/y of -rdpct (`<Percent>`) or -rdabs (`<Absolute>`, bytes), in order;
    /// `<DisableAllCache>` is -Sh, `<RandomRatio>` -rs.
    #[test]
    fn distributions_and_cache_elements_are_their_command_line_forms() {
        let target = |inner: &str| {
            format!("<Profile><TimeSpans><TimeSpan><Targets><Target><Path>t</Path>{inner}</Target></Targets></TimeSpan></TimeSpans></Profile>")
        };
        let pct = r#"<Random>4096</Random><DisableAllCache>true</DisableAllCache>
            <Distribution><Percent><Range IO="90">10</Range><Range IO="0">10</Range>
            <Range IO="5">20</Range></Percent></Distribution>"#;
        let p = to_args(&target(pct)).unwrap();
        assert_eq!(p.args, ["-r4096", "-Sh", "-rdpct90/10:0/10:5/20"]);
        assert!(p.unknown.is_empty());
        let abs = r#"<Random>4096</Random><RandomRatio>40</RandomRatio>
            <Distribution><Absolute><Range IO="90">1073741824</Range></Absolute></Distribution>"#;
        let p = to_args(&target(abs)).unwrap();
        assert_eq!(p.args, ["-r4096", "-rs40", "-rdabs90/1073741824"]);
        let off = to_args(&target("<DisableAllCache>false</DisableAllCache>")).unwrap();
        assert!(off.args.is_empty() && off.unknown.is_empty());
    }

    #[test]
    fn unknown_elements_and_bad_xml_are_named() {
        let p = to_args("<Profile><Frobnicate>x</Frobnicate></Profile>").unwrap();
        assert_eq!(p.unknown, ["Frobnicate"]);
        assert!(to_args("<Profile><Duration>5</Profile>")
            .unwrap_err()
            .to_string()
            .contains("Duration"));
    }
}
